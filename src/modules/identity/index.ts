// Wires the identity module.
import type { Module } from '../../platform/http/types.js';

export const identityModule: Module = {
  name: 'identity',
  register() {},
};
