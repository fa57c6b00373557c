// Wires the debt-claims module.
import type { Module } from '../../platform/http/types.js';

export const debtClaimsModule: Module = {
  name: 'debt-claims',
  register() {},
};
