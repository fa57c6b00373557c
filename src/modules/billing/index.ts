// Wires the billing module.
import type { Module } from '../../platform/http/types.js';

export const billingModule: Module = {
  name: 'billing',
  register() {},
};
