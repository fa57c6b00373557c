// Streaming reader for OFAC's SDN advanced XML (sdn_advanced.xml, ~100 MB): never holds the document, only the
// reference values it needs and the profiles that carry an EVM address.
//
// Layout read (namespace ignored, prefixes stripped):
//   Sanctions/DateOfIssue/{Year,Month,Day}                      -> publication date
//   ReferenceValueSets/FeatureTypeValues/FeatureType[@ID]       -> "Digital Currency Address - ETH", ...
//   ReferenceValueSets/NamePartTypeValues/NamePartType[@ID]     -> "Last Name", "First Name", "Entity Name", ...
//   DistinctParties/DistinctParty[@FixedRef]/Profile
//     Identity[@Primary]/Alias[@Primary]/DocumentedName/DocumentedNamePart/NamePartValue[@NamePartGroupID]
//     Identity/NamePartGroups/MasterNamePartGroup/NamePartGroup[@ID,@NamePartTypeID]
//     Feature[@FeatureTypeID]/FeatureVersion/VersionDetail      -> the address
import sax from 'sax';
import { addEntry, EVM_ADDRESS, FEATURE_PREFIX, own, SanctionsFileError, type SdnEntry } from './entries.js';

interface NamePart {
  groupId: string;
  value: string;
}
interface IdentityState {
  primary: boolean;
  groups: Map<string, string>; // NamePartGroup ID -> NamePartTypeID
  aliases: { primary: boolean; parts: NamePart[] }[];
}
interface ProfileState {
  sdnId: string;
  identities: IdentityState[];
  features: { typeId: string; value: string }[];
}
interface Candidate {
  sdnId: string;
  nameParts: { typeId: string | null; value: string }[];
  features: { typeId: string; value: string }[];
}

const local = (name: string) => {
  const i = name.indexOf(':');
  return i === -1 ? name : name.slice(i + 1);
};

export async function parseAdvancedXml(
  chunks: AsyncIterable<string>,
): Promise<{ publishedAt: Date | null; entries: Map<string, SdnEntry> }> {
  const parser = sax.parser(true, { trim: false, normalize: false, position: false });
  const featureTypes = new Map<string, string>();
  const namePartTypes = new Map<string, string>();
  const date: Record<string, string> = {};
  const candidates: Candidate[] = [];
  const stack: string[] = [];
  let root: string | null = null;
  let sawParties = false;

  let party: string | null = null;
  let profile: ProfileState | null = null;
  let identity: IdentityState | null = null;
  let alias: { primary: boolean; parts: NamePart[] } | null = null;
  let docNamesInAlias = 0;
  let feature: { typeId: string } | null = null;
  // Text capture: set while inside an element whose text we keep.
  let capture: ((text: string) => void) | null = null;
  let text = '';
  let error: Error | null = null;

  parser.onerror = (e) => {
    error ??= new SanctionsFileError(`not well-formed XML: ${e.message.split('\n')[0]}`);
    parser.error = null as unknown as Error;
  };
  parser.onopentag = (tag) => {
    const name = local(tag.name);
    const a = tag.attributes as Record<string, string>;
    const parent = stack[stack.length - 1];
    stack.push(name);
    if (stack.length === 1) root = name;
    switch (name) {
      case 'Year':
      case 'Month':
      case 'Day':
        if (parent === 'DateOfIssue' && stack.length === 3) capture = (t) => (date[name] = t);
        break;
      case 'FeatureType':
        if (parent === 'FeatureTypeValues') capture = (t) => featureTypes.set(own(a.ID), own(t));
        break;
      case 'NamePartType':
        if (parent === 'NamePartTypeValues') capture = (t) => namePartTypes.set(own(a.ID), own(t));
        break;
      case 'DistinctParties':
        sawParties = true;
        break;
      case 'DistinctParty':
        party = a.FixedRef ?? '';
        break;
      case 'Profile':
        if (party !== null) profile = { sdnId: party || a.ID || '', identities: [], features: [] };
        break;
      case 'Identity':
        if (profile && parent === 'Profile') {
          identity = { primary: a.Primary === 'true', groups: new Map(), aliases: [] };
          profile.identities.push(identity);
        }
        break;
      case 'Alias':
        if (identity) {
          alias = { primary: a.Primary === 'true', parts: [] };
          identity.aliases.push(alias);
          docNamesInAlias = 0;
        }
        break;
      case 'DocumentedName':
        if (alias) docNamesInAlias++;
        break;
      case 'NamePartValue':
        // Only the alias's first documented name (later ones are the same name in other scripts).
        if (alias && docNamesInAlias === 1) {
          const groupId = a.NamePartGroupID ?? '';
          const parts = alias.parts;
          capture = (t) => parts.push({ groupId, value: t });
        }
        break;
      case 'NamePartGroup':
        if (identity && a.ID) identity.groups.set(a.ID, a.NamePartTypeID ?? '');
        break;
      case 'Feature':
        if (profile) feature = { typeId: a.FeatureTypeID ?? '' };
        break;
      case 'VersionDetail':
        if (feature && profile) {
          const f = feature;
          const p = profile;
          capture = (t) => p.features.push({ typeId: f.typeId, value: t });
        }
        break;
    }
    if (capture) text = '';
  };
  parser.ontext = (t) => {
    if (capture) text += t;
  };
  parser.oncdata = parser.ontext;
  parser.onclosetag = (tagName) => {
    const name = local(tagName);
    stack.pop();
    if (capture) {
      capture(text.replace(/\s+/g, ' ').trim());
      capture = null;
    }
    switch (name) {
      case 'DistinctParty':
        party = null;
        break;
      case 'Profile':
        if (profile) {
          const evm = profile.features.filter((f) => EVM_ADDRESS.test(f.value));
          if (evm.length) {
            candidates.push({
              sdnId: own(profile.sdnId),
              nameParts: primaryName(profile).map((n) => ({ typeId: n.typeId === null ? null : own(n.typeId), value: own(n.value) })),
              features: evm.map((f) => ({ typeId: own(f.typeId), value: own(f.value) })),
            });
          }
        }
        profile = null;
        break;
      case 'Identity':
        identity = null;
        break;
      case 'Alias':
        alias = null;
        break;
      case 'Feature':
        feature = null;
        break;
    }
  };

  for await (const chunk of chunks) {
    parser.write(chunk);
    if (error) throw error;
  }
  parser.close();
  if (error) throw error;
  if (root !== 'Sanctions' || !sawParties) {
    throw new SanctionsFileError('not an OFAC SDN advanced XML file (expected a <Sanctions> document with <DistinctParties>)');
  }

  const entries = new Map<string, SdnEntry>();
  for (const c of candidates) {
    const name = composeName(c.nameParts.map((p) => ({ type: p.typeId ? (namePartTypes.get(p.typeId) ?? '') : '', value: p.value })));
    for (const f of c.features) {
      const type = featureTypes.get(f.typeId) ?? '';
      if (!type.startsWith(FEATURE_PREFIX)) continue;
      addEntry(entries, f.value, name, type.slice(FEATURE_PREFIX.length).trim(), c.sdnId);
    }
  }
  return { publishedAt: toDate(date), entries };
}

/** The primary identity's primary alias (else the first of each), with each part's NamePartTypeID. */
function primaryName(p: ProfileState): { typeId: string | null; value: string }[] {
  const identity = p.identities.find((i) => i.primary) ?? p.identities[0];
  if (!identity) return [];
  const alias = identity.aliases.find((a) => a.primary) ?? identity.aliases[0];
  if (!alias) return [];
  return alias.parts.filter((x) => x.value).map((x) => ({ typeId: identity.groups.get(x.groupId) ?? null, value: x.value }));
}

/** "LAST, First Middle" for people (as sdn.csv writes SDN_Name), the name as published for everything else. */
export function composeName(parts: { type: string; value: string }[]): string {
  const last = parts.filter((p) => p.type === 'Last Name').map((p) => p.value);
  const rest = parts.filter((p) => p.type !== 'Last Name').map((p) => p.value);
  if (last.length && rest.length) return `${last.join(' ')}, ${rest.join(' ')}`;
  return [...last, ...rest].join(' ');
}

function toDate(d: Record<string, string>): Date | null {
  const [y, m, day] = [Number(d.Year), Number(d.Month), Number(d.Day)];
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(day) || y < 1990 || m < 1 || m > 12 || day < 1 || day > 31)
    return null;
  return new Date(Date.UTC(y, m - 1, day));
}
