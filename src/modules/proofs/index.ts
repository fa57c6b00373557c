// Wires the proofs module.
import type { Module } from '../../platform/http/types.js';

export const proofsModule: Module = {
  name: 'proofs',
  register() {},
};
