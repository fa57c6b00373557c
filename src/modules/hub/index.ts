// Wires the hub module.
import type { Module } from '../../platform/http/types.js';

export const hubModule: Module = {
  name: 'hub',
  register() {},
};
