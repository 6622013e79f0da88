/**
 * Every agent process is started as the leader of its own process group (so Ctrl-C in a terminal
 * reaches arcbench alone, and arcbench decides how its agents stop), and killed with its group, so
 * whatever the agent started goes with it. Groups still alive when arcbench exits are killed then.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of liveGroups) killGroup(group);
    });
  }
}

export function forgetGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** SIGKILL to the whole group; a group that is already gone is no error. */
export function killGroup(pid: number): void {
  // A process that never started has no pid; -0 and -1 would name our own group and every process.
  if (!(pid > 1)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: every process of the group has exited.
  }
}
