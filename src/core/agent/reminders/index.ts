export * from './rules';
export * from './config';
export * from './monitor';
