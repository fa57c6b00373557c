// Wires the ingestion module.
import type { Module } from '../../platform/http/types.js';

export const ingestionModule: Module = {
  name: 'ingestion',
  register() {},
};
