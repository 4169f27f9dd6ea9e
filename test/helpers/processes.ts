/** Whether the process has exited and been reaped: kill(pid, 0) then fails with ESRCH. */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** SIGKILLs the process and waits (5 s at most) until it is gone; whether it is. */
export async function killAndReap(pid: number): Promise<boolean> {
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 100 && !gone(pid); i += 1) await new Promise((r) => setTimeout(r, 50));
  return gone(pid);
}
