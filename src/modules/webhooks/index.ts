// Wires the webhooks module.
import type { Module } from '../../platform/http/types.js';

export const webhooksModule: Module = {
  name: 'webhooks',
  register() {},
};
