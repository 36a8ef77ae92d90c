/**
 * Cache packs in a local folder: `<base>/<partition>/.pack-<writer>`, one file per writing process
 * and partition, appended to at each flush (one write for the whole batch). Old-layout entries are
 * the plain files beside them. A pack is scanned in slices, so reading a large one never holds it
 * whole; values stay in the file and are read at their offset when asked for. Reads of one pack that
 * overlap share one open file (a cached embedding call asks for hundreds of values at once), closed
 * when the last of them ends, so no descriptor outlives the reads.
 */
import { type FileHandle, mkdir, open, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { unlessAbsent } from './fs-errors.js'
import { encodeRecords, scanRecords, type PackRecord } from './pack-format.js'
import { PACK_PREFIX, type PackMedium, type ValueRef } from './packed-kv.js'

const SLICE = 4 * 2 ** 20

interface SharedHandle {
  handle: Promise<FileHandle>
  readers: number
}

export class PackFolder implements PackMedium {
  /** Open packs with the number of reads using each. */
  private readonly reading = new Map<string, SharedHandle>()

  constructor(readonly dir: string) {}

  async list(): Promise<{ packs: string[]; legacy: string[] }> {
    const entries = await unlessAbsent(
      this.dir,
      'list cache folder',
      () => readdir(this.dir, { withFileTypes: true }),
      [],
    )
    const files = entries.filter((e) => e.isFile()).map((e) => e.name)
    return {
      packs: files.filter((n) => n.startsWith(PACK_PREFIX)),
      legacy: files.filter((n) => !n.startsWith('.')),
    }
  }

  async scan(pack: string, found: (key: string, value: ValueRef | undefined) => void): Promise<void> {
    const file = join(this.dir, pack)
    const handle = await open(file, 'r')
    try {
      const size = (await handle.stat()).size
      let at = 0
      let want = Math.min(SLICE, size)
      for (;;) {
        const buffer = Buffer.alloc(want)
        const { bytesRead } = await handle.read(buffer, 0, want, at)
        const scanned = scanRecords(buffer.subarray(0, bytesRead), at)
        for (const r of scanned.records)
          found(r.key, r.deleted ? undefined : { pack: file, offset: r.valueOffset, length: r.valueLength })
        // A torn record, or one longer than what is left of the file (its end was cut, or its lengths
        // are garbage): what follows is not read.
        if (scanned.state === 'torn' || scanned.next + scanned.needed > size || bytesRead < want) return
        want = Math.max(SLICE, scanned.needed)
        at = scanned.next
      }
    } finally {
      await handle.close()
    }
  }

  async read(ref: { pack: string; offset: number; length: number }): Promise<string> {
    const shared = this.reading.get(ref.pack) ?? { handle: open(ref.pack, 'r'), readers: 0 }
    this.reading.set(ref.pack, shared)
    shared.readers++
    try {
      const buffer = Buffer.alloc(ref.length)
      await (await shared.handle).read(buffer, 0, ref.length, ref.offset)
      return buffer.toString('utf8')
    } finally {
      if (--shared.readers === 0) {
        this.reading.delete(ref.pack)
        // A failed open was reported to each read that awaited it; there is nothing to close then.
        await shared.handle.then(
          (handle) => handle.close(),
          () => undefined,
        )
      }
    }
  }

  readLegacy(key: string): Promise<string | undefined> {
    const file = join(this.dir, key)
    return unlessAbsent(file, 'read cache entry', () => readFile(file, 'utf8'), undefined)
  }

  async deleteLegacy(key: string): Promise<void> {
    await rm(join(this.dir, key), { force: true })
  }

  async write(pack: string, _sequence: number, records: readonly PackRecord[]): Promise<Array<ValueRef | undefined>> {
    const file = join(this.dir, pack)
    const { bytes, values } = encodeRecords(records)
    await mkdir(this.dir, { recursive: true })
    const handle = await open(file, 'a')
    try {
      // The pack's size before this batch: where its values land (the file is this writer's alone).
      const base = (await handle.stat()).size
      await handle.writeFile(bytes)
      return records.map((r, i) =>
        r.value === undefined ? undefined : { pack: file, offset: base + values[i]!.offset, length: values[i]!.length },
      )
    } finally {
      await handle.close()
    }
  }

  child(name: string): PackMedium {
    return new PackFolder(join(this.dir, name))
  }
}
