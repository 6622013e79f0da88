export * from './grid.ts';
export * from './actions.ts';
export * from './limits.ts';
export * from './errors.ts';
export * from './schemas.ts';
export * from './gridCodec.ts';
export * from './frameResponse.ts';
export * from './ids.ts';
