export * from './constants.js';
export * from './errors.js';
export * from './frames.js';
export * from './result.js';
export * from './tools/index.js';
export { renderToolReference } from './tools/reference.js';
export * from './pairingProofs.js';
export * from './originPolicy.js';
export * from './transactionLimits.js';
