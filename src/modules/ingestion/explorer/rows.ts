// Reading the explorer's account-list and log rows: their strings as numbers, dates and lower-case addresses.
import type { Row } from './source.js';

/** A row of a transaction that did not fail */
export const ok = (r: Row) => r.isError !== '1' && r.txreceipt_status !== '0';
export const lc = (s: string | undefined) => (s ?? '').toLowerCase();
export const time = (r: Row) => (r.timeStamp ? new Date(Number(r.timeStamp === '0x' ? 0 : r.timeStamp) * 1000) : null);
/** Etherscan writes zero as "0x" in log rows */
export const n = (v: string | undefined) => (v === '0x' ? 0 : Number(v));
export const idx = (v: string | undefined, fallback: number) => (v === undefined || v === '' ? fallback : n(v));
/** A value of zero wei (or none) */
export const noValue = (v: string | undefined) => !v || /^0+$/.test(v);
