/** The reference service and the scoring it shares with the runner. */
export { ReferenceService, type ReferenceServiceOptions, type UserIdentity } from './referenceService.ts';
export { describeGame, REFERENCE_DATE_DOWNLOADED } from './gameDirectory.ts';
export { isoTime, type Clock } from './clock.ts';
export * from './scoring.ts';
