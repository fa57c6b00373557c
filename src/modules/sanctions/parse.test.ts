// Parsing of the two official OFAC formats, written here after the published schemas.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { parseSanctionsFile, readSdnComments, sniffFormat, SanctionsFileError, entityNameOf } from './parse/index.js';
import { advancedXml, fileText, sdnCsv, sdnCsvWithComments, zipArchive, type SdnParty } from './sdn-files.js';

const addr = () => getAddress('0x' + randomBytes(20).toString('hex')); // checksummed, as OFAC mostly publishes them
const bytesOf = (s: string, size = 1 << 16) => {
  const b = Buffer.from(s, 'utf8');
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
};
async function* chunks(parts: Buffer[]) {
  for (const p of parts) yield p;
}

function sampleParties() {
  const [tc1, tc2, usdc, person, shared] = [addr(), addr(), addr(), addr(), addr()];
  const parties: SdnParty[] = [
    {
      id: 40001,
      name: 'TORNADO CASH',
      akas: ['TORNADO CASH CLASSIC'],
      addresses: [
        { ticker: 'ETH', address: tc1 },
        { ticker: 'ETH', address: tc2.toLowerCase() },
        { ticker: 'USDC', address: usdc },
        { ticker: 'XBT', address: '1AjZPMsnmpdK2Rv9KQNfMurTXinscVro9V' },
        { ticker: 'USDT', address: 'TXFzDHBQzZ2Qn3Tst9rE5w2sDsypyALWo3' },
      ],
    },
    {
      id: 40002,
      name: { last: 'SEMENOV', first: 'Roman' },
      akas: ['SEMENOV'],
      addresses: [
        { ticker: 'ETH', address: person },
        { ticker: 'ARB', address: shared },
      ],
    },
    {
      id: 40003,
      name: 'GARANTEX EUROPE OU',
      addresses: [
        { ticker: 'BSC', address: shared },
        { ticker: 'TRX', address: 'TKWcUcvKkKJbKUdVAZcUVKrZfmTmmT4a1Z' },
      ],
    },
    { id: 40004, name: 'AEROCARIBBEAN AIRLINES', addresses: [] },
  ];
  return { parties, tc1, tc2, usdc, person, shared };
}

describe('SDN advanced XML', () => {
  it('extracts every EVM address with its entity, tickers and the date of issue', async () => {
    const s = sampleParties();
    const text = fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), s.parties));
    const list = await parseSanctionsFile(chunks(bytesOf(text)));
    expect(list.format).toBe('sdn_advanced_xml');
    expect(list.publishedAt?.toISOString()).toBe('2024-09-27T00:00:00.000Z');
    expect(list.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(list.bytes).toBe(Buffer.byteLength(text));
    expect([...list.entries.keys()].sort()).toEqual([s.tc1, s.tc2, s.usdc, s.person, s.shared].map((a) => a.toLowerCase()).sort());
    const tc = list.entries.get(s.tc1.toLowerCase())!;
    expect(tc).toMatchObject({ entityNames: ['TORNADO CASH'], currencies: ['ETH'], sdnIds: ['40001'] });
    expect(list.entries.get(s.usdc.toLowerCase())!.currencies).toEqual(['USDC']);
    // A person's primary name reads as sdn.csv writes it; the a.k.a. is not the name.
    expect(entityNameOf(list.entries.get(s.person.toLowerCase())!)).toBe('SEMENOV, Roman');
    // One address under two entries names both.
    const shared = list.entries.get(s.shared.toLowerCase())!;
    expect(entityNameOf(shared)).toBe('SEMENOV, Roman; GARANTEX EUROPE OU');
    expect(shared.currencies).toEqual(['ARB', 'BSC']);
    // Bitcoin and Tron addresses are not EVM addresses.
    expect([...list.entries.keys()].every((k) => /^0x[0-9a-f]{40}$/.test(k))).toBe(true);
  });

  it('gives the same result for any chunking, a byte-order mark and a namespace prefix', async () => {
    const s = sampleParties();
    const date = new Date('2025-01-02T00:00:00Z');
    s.parties[0].name = 'TORNADO CASH – ÉQUIPE'; // multi-byte characters split across chunks
    const plain = await parseSanctionsFile(chunks(bytesOf(fileText(advancedXml(date, s.parties)))));
    const tiny = await parseSanctionsFile(chunks([Buffer.from([0xef, 0xbb, 0xbf]), ...bytesOf(fileText(advancedXml(date, s.parties)), 7)]));
    const prefixed = await parseSanctionsFile(chunks(bytesOf(fileText(advancedXml(date, s.parties, { prefix: 'sdn' })), 1000)));
    for (const other of [tiny, prefixed]) {
      expect(other.publishedAt).toEqual(plain.publishedAt);
      expect([...other.entries.entries()].sort()).toEqual([...plain.entries.entries()].sort());
    }
    expect(entityNameOf(plain.entries.get(s.tc1.toLowerCase())!)).toBe('TORNADO CASH – ÉQUIPE');
  });

  it('refuses XML that is not an SDN document, and broken XML', async () => {
    await expect(parseSanctionsFile(chunks([Buffer.from('<?xml version="1.0"?><rss><channel/></rss>')]))).rejects.toThrow(
      SanctionsFileError,
    );
    const s = sampleParties();
    const broken = fileText(advancedXml(new Date(), s.parties)).slice(0, 3000) + '</Wrong>';
    await expect(parseSanctionsFile(chunks([Buffer.from(broken)]))).rejects.toThrow(/not well-formed/);
  });

  it('leaves the date null when DateOfIssue is missing', async () => {
    const s = sampleParties();
    const text = fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), s.parties)).replace(/<DateOfIssue>[\s\S]*?<\/DateOfIssue>/, '');
    const list = await parseSanctionsFile(chunks([Buffer.from(text)]));
    expect(list.publishedAt).toBeNull();
    expect(list.entries.size).toBe(5);
  });
});

describe('sdn.csv', () => {
  it('extracts addresses from the remarks with SDN_Name, ignoring other tickers and the 0x1A end line', async () => {
    const s = sampleParties();
    const text = fileText(sdnCsv(s.parties));
    expect(text.endsWith('\x1a\r\n')).toBe(true);
    const list = await parseSanctionsFile(chunks(bytesOf(text, 50)));
    expect(list.format).toBe('sdn_csv');
    expect(list.publishedAt).toBeNull();
    expect(list.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect([...list.entries.keys()].sort()).toEqual([s.tc1, s.tc2, s.usdc, s.person, s.shared].map((a) => a.toLowerCase()).sort());
    expect(list.entries.get(s.tc2.toLowerCase())).toMatchObject({ entityNames: ['TORNADO CASH'], currencies: ['ETH'], sdnIds: ['40001'] });
    expect(entityNameOf(list.entries.get(s.person.toLowerCase())!)).toBe('SEMENOV, Roman');
    expect(entityNameOf(list.entries.get(s.shared.toLowerCase())!)).toBe('SEMENOV, Roman; GARANTEX EUROPE OU');
  });

  it('agrees with the advanced XML on the same entries', async () => {
    const s = sampleParties();
    const xml = await parseSanctionsFile(chunks([Buffer.from(fileText(advancedXml(new Date(), s.parties)))]));
    const csv = await parseSanctionsFile(chunks([Buffer.from(fileText(sdnCsv(s.parties)))]));
    expect([...csv.entries.entries()].sort()).toEqual([...xml.entries.entries()].sort());
  });

  it('joins remarks cut anywhere (even inside an address) with their continuation in sdn_comments.csv', async () => {
    const many = Array.from({ length: 12 }, () => addr());
    const parties: SdnParty[] = [
      {
        id: 30518,
        name: 'INTERNET RESEARCH AGENCY LLC',
        addresses: many.map((address, i) => ({ ticker: i % 3 ? 'ETH' : 'USDT', address })),
      },
      ...sampleParties().parties,
    ];
    const whole = await parseSanctionsFile(chunks([Buffer.from(fileText(sdnCsv(parties)))]));
    expect(whole.entries.size).toBe(17);
    // Cut every long remark at each of several points, some inside an address or inside "Digital Currency Address".
    for (const limit of [100, 161, 200, 333, 517]) {
      const { csv, comments } = sdnCsvWithComments(parties, limit);
      expect(comments.length).toBeGreaterThan(0);
      const alone = await parseSanctionsFile(chunks([Buffer.from(csv)]));
      expect(alone.entries.size).toBeLessThan(17);
      const c = await readSdnComments(chunks(bytesOf(comments, 64)));
      expect(c.sha256).toBe(createHash('sha256').update(comments).digest('hex'));
      const joined = await parseSanctionsFile(chunks(bytesOf(csv, 64)), { comments: c });
      expect([...joined.entries.entries()].sort()).toEqual([...whole.entries.entries()].sort());
      // The list is both files: its hash differs from sdn.csv's alone, and is stable.
      expect(joined.sha256).not.toBe(alone.sha256);
      expect((await parseSanctionsFile(chunks([Buffer.from(csv)]), { comments: c })).sha256).toBe(joined.sha256);
    }
    await expect(readSdnComments(chunks([Buffer.from('<xml/>\n<more/>\n')]))).rejects.toThrow(/sdn_comments/);
  });

  it('refuses text that is not an sdn.csv', async () => {
    await expect(parseSanctionsFile(chunks([Buffer.from('address,name\n0xabc,foo\n')]))).rejects.toThrow(/not an OFAC sdn.csv/);
    await expect(parseSanctionsFile(chunks([Buffer.from('   \n')]))).rejects.toThrow(/empty/);
  });
});

describe('format sniffing', () => {
  it('recognizes XML (after a BOM and whitespace) and CSV', () => {
    expect(sniffFormat(Buffer.from('\ufeff\r\n  <?xml version="1.0"?>'))).toBe('sdn_advanced_xml');
    expect(sniffFormat(Buffer.from('36,"AEROCARIBBEAN AIRLINES",-0- ,'))).toBe('sdn_csv');
  });

  it('reads the list out of a ZIP archive (deflated, with or without data descriptors, or stored)', async () => {
    const s = sampleParties();
    const xml = Buffer.from(fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), s.parties)));
    const plain = await parseSanctionsFile(chunks([xml]));
    for (const opts of [{}, { dataDescriptor: true }, { store: true }]) {
      const zip = zipArchive(
        [
          { name: 'SDN_ADVANCED.XML', data: xml },
          { name: 'README.TXT', data: Buffer.from('other entry') },
        ],
        opts,
      );
      const fromZip = await parseSanctionsFile(
        chunks(Array.from({ length: Math.ceil(zip.length / 97) }, (_, i) => zip.subarray(i * 97, i * 97 + 97))),
      );
      expect(fromZip.format).toBe('sdn_advanced_xml');
      // The hash is the list file's, so the same list zipped or not is the same version.
      expect(fromZip.sha256).toBe(plain.sha256);
      expect([...fromZip.entries.entries()].sort()).toEqual([...plain.entries.entries()].sort());
    }
    const csvZip = zipArchive([{ name: 'sdn.csv', data: Buffer.from(fileText(sdnCsv(s.parties))) }]);
    expect((await parseSanctionsFile(chunks([csvZip]))).entries.size).toBe(5);
    await expect(parseSanctionsFile(chunks([zipArchive([{ name: 'notes.txt', data: xml }])]))).rejects.toThrow(/first file is "notes.txt"/);
    const corrupt = zipArchive([{ name: 'sdn_advanced.xml', data: xml }]);
    corrupt.fill(0x55, 60, 120);
    await expect(parseSanctionsFile(chunks([corrupt]))).rejects.toThrow(SanctionsFileError);
    // Limits apply to the inflated size (a small archive cannot expand without bound).
    await expect(parseSanctionsFile(chunks([zipArchive([{ name: 'sdn_advanced.xml', data: xml }])]), { maxBytes: 2000 })).rejects.toThrow(
      /larger than 2000/,
    );
  });

  it('stops reading at maxBytes', async () => {
    const s = sampleParties();
    const text = fileText(advancedXml(new Date(), s.parties));
    await expect(parseSanctionsFile(chunks(bytesOf(text, 100)), { maxBytes: 1000 })).rejects.toThrow(/larger than 1000 bytes/);
  });
});
