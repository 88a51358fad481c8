export * from './types';
export * from './file';
export * from './transcript';
