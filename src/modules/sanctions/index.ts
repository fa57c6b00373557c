// Wires the sanctions module.
import type { Module } from '../../platform/http/types.js';

export const sanctionsModule: Module = {
  name: 'sanctions',
  register() {},
};
