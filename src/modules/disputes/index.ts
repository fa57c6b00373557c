// Wires the disputes module.
import type { Module } from '../../platform/http/types.js';

export const disputesModule: Module = {
  name: 'disputes',
  register() {},
};
