// NFT: collections, mints and NFTs the wallet acquired itself, and what it kept.
import type { WalletFeatures } from '../../contracts.js';
import { backingOf, type Backing } from '../backing.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, type CategoryResult, type Term } from '../terms.js';
import { clamp, sat } from '../transforms.js';
import { anchor, capped, plural, result } from './shared.js';

export function nft(f: WalletFeatures, P: ModelParams, b: Backing = backingOf(f, P.backing)): CategoryResult {
  const n = f.nft;
  const X = P.nft;
  const acquired = n.mints + n.received;
  const terms: Term[] = [];
  if (n.collections > 0)
    terms.push({
      code: 'NFT_COLLECTIONS',
      description: `interacted with ${plural(n.collections, 'collection')}`,
      points: X.collections.points * sat(n.collections, X.collections.k),
    });
  if (n.mints > 0)
    terms.push({ code: 'NFT_MINTS', description: `minted ${plural(n.mints, 'NFT')}`, points: X.mints.points * sat(n.mints, X.mints.k) });
  if (n.received > 0)
    terms.push({
      code: 'NFTS_RECEIVED',
      description: `received ${plural(n.received, 'NFT')}`,
      points: X.received.points * sat(n.received, X.received.k),
    });
  if (acquired > 0) {
    const kept = clamp(1 - n.sent / acquired, 0, 1);
    terms.push({ code: 'NFT_RETENTION', description: `kept ${Math.round(kept * 100)}% of acquired NFTs`, points: X.retention * kept });
  }
  const nftWhy = [
    n.unlisted
      ? `${plural(n.unlisted, 'NFT transfer or mint', 'NFT transfers or mints')} in collections neither on the reviewed list nor held by enough independent wallets`
      : '',
    n.notTheirs
      ? `${plural(n.notTheirs, 'NFT')} minted to it or moved in someone else's transaction (an airdrop, an operator's transfer: it did nothing)`
      : '',
  ].filter(Boolean);
  if (nftWhy.length)
    terms.push({ code: 'NFTS_DISCOUNTED', description: `found but not counted: ${nftWhy.join('; ')}`, points: 0, pinned: true });
  const backing = b.total;
  const cap = capped(terms, backing, 'what it lost', P, true);
  const conf = confidenceOf(
    acquired + n.sent,
    X.confidenceK,
    [n.mints > 0, n.received > 0, n.collections >= 2, n.sent > 0],
    f.chains.length,
  );
  return result(
    'NFT',
    terms,
    conf,
    `${n.mints},${n.received},${n.sent},${n.collections}${cap}`,
    '',
    { code: 'NO_NFT_ACTIVITY', description: 'no NFT transfers or mints found' },
    anchor(f, 'nft'),
    backing,
  );
}
