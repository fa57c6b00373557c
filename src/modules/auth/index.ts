// Wires the auth module.
import type { Module } from '../../platform/http/types.js';

export const authModule: Module = {
  name: 'auth',
  register() {},
};
