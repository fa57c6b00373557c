// Wires the reputation module.
import type { Module } from '../../platform/http/types.js';

export const reputationModule: Module = {
  name: 'reputation',
  register() {},
};
