// Wires the scoring module.
import type { Module } from '../../platform/http/types.js';

export const scoringModule: Module = {
  name: 'scoring',
  register() {},
};
