// What an OFAC file yields for Credence: the EVM addresses on the SDN list, each with the SDN entries it belongs to.
// Any "Digital Currency Address - <ticker>" whose value is 0x + 40 hex characters is an EVM address (today ETH,
// ETC, ARB, BSC, and the USDC/USDT entries published in that form; USDT/USDC on Tron or Solana have other shapes).

export type ListFormat = 'sdn_advanced_xml' | 'sdn_csv';

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const FEATURE_PREFIX = 'Digital Currency Address - ';

export interface SdnEntry {
  /** lowercase */
  address: string;
  /** SDN names of every entry listing this address (usually one) */
  entityNames: string[];
  /** tickers the address is published under, e.g. ETH, USDC */
  currencies: string[];
  /** SDN entry ids (XML DistinctParty FixedRef / CSV ent_num) */
  sdnIds: string[];
}

export interface ParsedList {
  format: ListFormat;
  /** from the file (XML DateOfIssue) or null when the format carries none (sdn.csv) */
  publishedAt: Date | null;
  entries: Map<string, SdnEntry>;
  /** sha256 of the file's bytes, hex */
  sha256: string;
  bytes: number;
}

/** A copy that owns its characters: V8 substrings keep their whole parent (a 1 MB chunk of the file) alive. */
export const own = (s: string) => (s.length ? Buffer.from(s, 'utf8').toString('utf8') : '');

export function addEntry(entries: Map<string, SdnEntry>, address: string, name: string, currency: string, sdnId: string) {
  const key = address.toLowerCase();
  let e = entries.get(key);
  if (!e) {
    e = { address: own(key), entityNames: [], currencies: [], sdnIds: [] };
    entries.set(e.address, e);
  }
  if (name && !e.entityNames.includes(name)) e.entityNames.push(own(name));
  if (currency && !e.currencies.includes(currency)) e.currencies.push(own(currency));
  if (sdnId && !e.sdnIds.includes(sdnId)) e.sdnIds.push(own(sdnId));
}

/** The name reported for an address: its SDN names joined (an address shared by two entries names both). */
export const entityNameOf = (e: Pick<SdnEntry, 'entityNames'>) => e.entityNames.join('; ');

/** Thrown for a file that is not an OFAC SDN file in a supported format. */
export class SanctionsFileError extends Error {}
export class SanctionsFileTooLarge extends SanctionsFileError {}
