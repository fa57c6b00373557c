// Salted Poseidon commitments, exactly as the circuits compute them, and random field-element salts.
import { randomBytes } from 'node:crypto';
// one file per arity: the package index loads the constants of all sixteen (~1 s of start-up)
import { poseidon3 } from 'poseidon-lite/poseidon3';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { FIELD_R } from './encoding.js';

/** A uniformly random element of the bn128 scalar field (512 random bits reduced: bias below 2^-250). */
export const randomSalt = (): bigint => BigInt(`0x${randomBytes(64).toString('hex')}`) % FIELD_R;

export const addressToField = (address: string): bigint => BigInt(address.toLowerCase());
export const fieldToAddress = (v: bigint): string => `0x${v.toString(16).padStart(40, '0')}`;

/** score_threshold: Poseidon(subject, categoryId, score, salt) */
export const scoreCommitment = (address: string, categoryId: number, score: number, salt: bigint): bigint =>
  poseidon4([addressToField(address), BigInt(categoryId), BigInt(score), salt]);

/** age_over: Poseidon(subject, birthDate yyyymmdd, salt) */
export const birthDateCommitment = (address: string, birthDate: number, salt: bigint): bigint =>
  poseidon3([addressToField(address), BigInt(birthDate), salt]);
