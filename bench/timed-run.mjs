// One CLI process under GNU time (`/usr/bin/time -v`), for the peak RSS of that process itself.
import { spawn } from 'node:child_process'

/**
 * Runs `argv` (a command and its arguments) under GNU time; resolves with its exit code, stderr, peak RSS
 * in MB and CPU seconds (user + system: on a loaded machine a steadier figure than the wall time).
 */
export function timedRun(argv, { cwd, env = {} }) {
  return new Promise((done) => {
    const child = spawn('/usr/bin/time', ['-v', ...argv], {
      cwd,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.stdout.resume()
    child.on('close', (code) =>
      done({
        code,
        stderr,
        peakMb: Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024,
        cpuSeconds:
          Number(/User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN) +
          Number(/System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN),
      }),
    )
  })
}
