// Wires the compliance module.
import type { Module } from '../../platform/http/types.js';

export const complianceModule: Module = {
  name: 'compliance',
  register() {},
};
