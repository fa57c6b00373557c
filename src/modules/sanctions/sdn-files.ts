// Writes files in OFAC's two published formats (SDN advanced XML and sdn.csv) from a small description of SDN
// entries. Used by the tests and the benchmark to produce inputs that follow the official schemas.
import { crc32, deflateRawSync } from 'node:zlib';

export interface SdnParty {
  /** DistinctParty FixedRef / ent_num */
  id: number;
  /** an entity's name, or a person's last and first names */
  name: string | { last: string; first: string };
  akas?: string[];
  /** "Digital Currency Address - <ticker>" features */
  addresses: { ticker: string; address: string }[];
  program?: string;
}

const NS = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML';
export const FEATURE_TYPE_IDS: Record<string, number> = {
  XBT: 344,
  ETH: 345,
  XMR: 444,
  LTC: 566,
  ZEC: 686,
  DASH: 687,
  BTG: 688,
  ETC: 689,
  BSV: 706,
  BCH: 726,
  XVG: 746,
  USDT: 887,
  XRP: 907,
  TRX: 1007,
  ARB: 1027,
  BSC: 1047,
  USDC: 1067,
  SOL: 1087,
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** sdn_advanced.xml: DateOfIssue, ReferenceValueSets, DistinctParties/Profile/{Identity,Feature}. */
export function* advancedXml(publishedAt: Date, parties: Iterable<SdnParty>, opts: { prefix?: string } = {}): Generator<string> {
  const p = opts.prefix ? `${opts.prefix}:` : '';
  const nsAttr = opts.prefix ? `xmlns:${opts.prefix}="${NS}"` : `xmlns="${NS}"`;
  yield `<?xml version="1.0" encoding="utf-8"?>\r\n<${p}Sanctions xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ${nsAttr}>\r\n`;
  yield `  <${p}DateOfIssue>\r\n    <${p}Year>${publishedAt.getUTCFullYear()}</${p}Year>\r\n    <${p}Month>${publishedAt.getUTCMonth() + 1}</${p}Month>\r\n    <${p}Day>${publishedAt.getUTCDate()}</${p}Day>\r\n  </${p}DateOfIssue>\r\n`;
  yield `  <${p}ReferenceValueSets>\r\n    <${p}AliasTypeValues>\r\n      <${p}AliasType ID="1400">A.K.A.</${p}AliasType>\r\n      <${p}AliasType ID="1401">F.K.A.</${p}AliasType>\r\n      <${p}AliasType ID="1402">N.K.A.</${p}AliasType>\r\n      <${p}AliasType ID="1403">Name</${p}AliasType>\r\n    </${p}AliasTypeValues>\r\n`;
  yield `    <${p}FeatureTypeValues>\r\n      <${p}FeatureType ID="8" FeatureTypeGroupID="1">Birthdate</${p}FeatureType>\r\n      <${p}FeatureType ID="10" FeatureTypeGroupID="1">Nationality Country</${p}FeatureType>\r\n`;
  for (const [ticker, id] of Object.entries(FEATURE_TYPE_IDS)) {
    yield `      <${p}FeatureType ID="${id}" FeatureTypeGroupID="1">Digital Currency Address - ${ticker}</${p}FeatureType>\r\n`;
  }
  yield `    </${p}FeatureTypeValues>\r\n    <${p}NamePartTypeValues>\r\n      <${p}NamePartType ID="1520">Last Name</${p}NamePartType>\r\n      <${p}NamePartType ID="1521">First Name</${p}NamePartType>\r\n      <${p}NamePartType ID="1522">Middle Name</${p}NamePartType>\r\n      <${p}NamePartType ID="1525">Entity Name</${p}NamePartType>\r\n    </${p}NamePartTypeValues>\r\n  </${p}ReferenceValueSets>\r\n`;
  yield `  <${p}Locations />\r\n  <${p}IDRegDocuments />\r\n  <${p}DistinctParties>\r\n`;
  let id = 100_000;
  for (const party of parties) {
    const identityId = ++id;
    const person = typeof party.name !== 'string';
    const nameParts: [number, string][] =
      typeof party.name === 'string'
        ? [[1525, party.name]]
        : [
            [1520, party.name.last],
            [1521, party.name.first],
          ];
    const groups = nameParts.map(([type]) => ({ id: ++id, type }));
    const documented = (parts: [number, string][], primary: boolean, aliasType: number) =>
      `        <${p}Alias FixedRef="${party.id}" AliasTypeID="${aliasType}" Primary="${primary}" LowQuality="false">\r\n` +
      `          <${p}DocumentedName ID="${++id}" FixedRef="${party.id}" DocNameStatusID="1">\r\n` +
      parts
        .map(
          ([, value], i) =>
            `            <${p}DocumentedNamePart>\r\n              <${p}NamePartValue NamePartGroupID="${groups[Math.min(i, groups.length - 1)].id}" ScriptID="215" ScriptStatusID="1" Acronym="false">${esc(value)}</${p}NamePartValue>\r\n            </${p}DocumentedNamePart>\r\n`,
        )
        .join('') +
      `          </${p}DocumentedName>\r\n        </${p}Alias>\r\n`;
    let out = `    <${p}DistinctParty FixedRef="${party.id}">\r\n      <${p}Comment />\r\n      <${p}Profile ID="${party.id}" PartySubTypeID="${person ? 4 : 3}">\r\n`;
    out += `        <${p}Identity ID="${identityId}" FixedRef="${party.id}" Primary="true" False="false">\r\n`;
    out += documented(nameParts, true, 1403);
    for (const aka of party.akas ?? []) out += documented([[nameParts[0][0], aka]], false, 1400);
    out += `        <${p}NamePartGroups>\r\n`;
    for (const g of groups)
      out += `          <${p}MasterNamePartGroup>\r\n            <${p}NamePartGroup ID="${g.id}" NamePartTypeID="${g.type}" />\r\n          </${p}MasterNamePartGroup>\r\n`;
    out += `        </${p}NamePartGroups>\r\n        </${p}Identity>\r\n`;
    for (const a of party.addresses) {
      const typeId = FEATURE_TYPE_IDS[a.ticker];
      if (typeId === undefined) throw new Error(`unknown ticker ${a.ticker}`);
      out += `        <${p}Feature ID="${++id}" FeatureTypeID="${typeId}">\r\n          <${p}FeatureVersion ID="${++id}" ReliabilityID="1">\r\n            <${p}Comment />\r\n`;
      out += `            <${p}VersionDetail DetailTypeID="1432">${esc(a.address)}</${p}VersionDetail>\r\n          </${p}FeatureVersion>\r\n`;
      out += `          <${p}IdentityReference IdentityID="${identityId}" IdentityFeatureLinkTypeID="1" />\r\n        </${p}Feature>\r\n`;
    }
    out += `      </${p}Profile>\r\n    </${p}DistinctParty>\r\n`;
    yield out;
  }
  yield `  </${p}DistinctParties>\r\n  <${p}ProfileRelationships />\r\n  <${p}SanctionsEntries />\r\n</${p}Sanctions>\r\n`;
}

const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
const NONE = '-0- ';

function remarksOf(party: SdnParty): string {
  return (
    [
      ...party.addresses.map((a, i) => `${i ? 'alt. ' : ''}Digital Currency Address - ${a.ticker} ${a.address}`),
      'Secondary sanctions risk: North Korea Sanctions Regulations, sections 510.201 and 510.210',
      ...(party.akas ?? []).map((a) => `a.k.a. '${a}'`),
    ].join('; ') + '.'
  );
}

function csvRow(party: SdnParty, remarks: string): string {
  const person = typeof party.name !== 'string';
  const name = typeof party.name === 'string' ? party.name : `${party.name.last}, ${party.name.first}`;
  return (
    [
      String(party.id),
      q(name),
      person ? q('individual') : NONE,
      q(party.program ?? 'CYBER2] [DPRK3'),
      NONE,
      NONE,
      NONE,
      NONE,
      NONE,
      NONE,
      NONE,
      q(remarks),
    ].join(',') + '\r\n'
  );
}

/** sdn.csv: no header; ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks. */
export function* sdnCsv(parties: Iterable<SdnParty>): Generator<string> {
  for (const party of parties) yield csvRow(party, remarksOf(party));
  yield '\x1a\r\n';
}

/** sdn.csv with remarks cut at `limit` characters (anywhere, as OFAC cuts them) and sdn_comments.csv holding the rest. */
export function sdnCsvWithComments(parties: Iterable<SdnParty>, limit: number): { csv: string; comments: string } {
  let csv = '';
  let comments = '';
  for (const party of parties) {
    const remarks = remarksOf(party);
    csv += csvRow(party, remarks.slice(0, limit));
    if (remarks.length > limit) comments += `${party.id},${q(remarks.slice(limit))}\r\n`;
  }
  return { csv: csv + '\x1a\r\n', comments };
}

export const fileText = (chunks: Iterable<string>) => [...chunks].join('');

/** A ZIP archive of the given files, as OFAC ships SDN_ADVANCED.ZIP (deflated; optionally with data descriptors). */
export function zipArchive(files: { name: string; data: Buffer }[], opts: { store?: boolean; dataDescriptor?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name);
    const body = opts.store ? f.data : deflateRawSync(f.data);
    const crc = crc32(f.data);
    const dd = !!opts.dataDescriptor && !opts.store;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(dd ? 8 : 0, 6);
    local.writeUInt16LE(opts.store ? 0 : 8, 8);
    local.writeUInt32LE(dd ? 0 : crc, 14);
    local.writeUInt32LE(dd ? 0 : body.length, 18);
    local.writeUInt32LE(dd ? 0 : f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const descriptor = Buffer.alloc(dd ? 16 : 0);
    if (dd) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(f.data.length, 12);
    }
    parts.push(local, name, body, descriptor);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(dd ? 8 : 0, 8);
    c.writeUInt16LE(opts.store ? 0 : 8, 10);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(f.data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
    offset += local.length + name.length + body.length + descriptor.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}
