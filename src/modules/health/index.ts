// Wires the health module.
import type { Module } from '../../platform/http/types.js';

export const healthModule: Module = {
  name: 'health',
  register() {},
};
