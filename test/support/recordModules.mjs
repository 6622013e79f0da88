// Preloaded with `node --import`: records the URL of every module the process resolves, one a line, in
// the file named by RECORD_MODULES_TO, so a test can say which packages a command loaded.
import { register } from 'node:module';

register('./recordModulesHook.mjs', import.meta.url, { data: { file: process.env.RECORD_MODULES_TO } });
