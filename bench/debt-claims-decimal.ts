// Cost of exact decimals on the debt-claim routes: the module's JSON parser (raw amount text) and serializer
// (ExactDecimal -> bare JSON number) against plain JSON.parse / JSON.stringify on the same payloads, same run.
import { ExactDecimal, parseJsonKeepingDecimals, stringifyExact } from '../src/modules/debt-claims/decimal.js';

const body = JSON.stringify({
  creditorAddress: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  debtorAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  claimType: 'DefaultedLoan',
  amount: 0,
  currency: 'USDC',
  description: 'Borrowed 12k USDC on Aave, never repaid; see the evidence transaction',
  evidenceTransactionHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  chainId: 1,
  protocolName: 'Aave v3',
}).replace('"amount":0', '"amount":12345678901234567890.123456');

const listing = (exact: boolean) => ({
  debtorAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  totalOutstandingDebt: exact ? new ExactDecimal('123456.789') : 123456.789,
  claimCount: 50,
  claims: Array.from({ length: 50 }, (_, i) => ({
    id: `6f1c1d7e-8a53-4b8e-9d55-1f8f7f0f0a${String(i).padStart(2, '0')}`,
    creditorAddress: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
    claimType: 'DefaultedLoan',
    status: 'Pending',
    amount: exact ? new ExactDecimal(`${i}1234.5678`) : Number(`${i}1234.5678`),
    currency: 'USDC',
    protocolName: 'Aave v3',
    createdAt: new Date(),
  })),
});

function rate(fn: () => unknown, ms = 1500): number {
  for (let i = 0; i < 2000; i++) fn();
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 200; i++) fn();
    n += 200;
  }
  return (n / ms) * 1000;
}

const plainParse = rate(() => JSON.parse(body));
const exactParse = rate(() => parseJsonKeepingDecimals(body, ['amount']));
const exactList = listing(true);
const plainList = listing(false);
const plainOut = rate(() => JSON.stringify(plainList));
const exactOut = rate(() => stringifyExact(exactList));
const fmt = (n: number) => `${Math.round(n).toLocaleString('en')}/s`;
console.log(`parse claim body:     JSON.parse ${fmt(plainParse)}  exact ${fmt(exactParse)}  ratio ${(exactParse / plainParse).toFixed(2)}`);
console.log(
  `serialize 50-claim listing: JSON.stringify ${fmt(plainOut)}  exact ${fmt(exactOut)}  ratio ${(exactOut / plainOut).toFixed(2)}`,
);
