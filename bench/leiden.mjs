// Leiden benchmark: seeded planted-partition graphs (average degree 8, mixing 0.3, weights 1–10),
// compat vs quality mode, flat and hierarchical (max cluster size 10). Run: npm run bench:leiden
// Optional argument: comma-separated sizes, e.g. `node bench/leiden.mjs 10000,100000`.
import { buildNetwork, hierarchicalLeidenNetwork, leidenNetwork, networkModularity } from '../dist/graph/leiden/index.js'

const SIZES = (process.argv[2] ?? '10000,100000,1000000').split(',').map(Number)
const COMMUNITY_SIZE = 100
const MIXING = 0.3

/** mulberry32: a tiny seeded generator so every run benchmarks the same graphs. */
function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function plantedPartition(n, seed) {
  const rand = mulberry32(seed)
  const labels = Array.from({ length: n }, (_, i) => `n${i}`)
  const edges = []
  const m = 4 * n
  while (edges.length < m) {
    const u = Math.floor(rand() * n)
    let v
    if (rand() < MIXING) v = Math.floor(rand() * n)
    else v = Math.floor(u / COMMUNITY_SIZE) * COMMUNITY_SIZE + Math.floor(rand() * COMMUNITY_SIZE)
    if (v >= n || v === u) continue
    edges.push([labels[u], labels[v], 1 + Math.floor(rand() * 10)])
  }
  return edges
}

/** JIT warm-up on a small graph so the timings below measure steady-state code, not compilation. */
function warmUp() {
  const labeled = buildNetwork(plantedPartition(10_000, 999))
  const t0 = performance.now()
  for (const mode of ['compat', 'quality']) {
    leidenNetwork(labeled.network, { mode })
    hierarchicalLeidenNetwork(labeled, { mode })
  }
  console.log(`warm-up (10k graph, both modes, cold JIT): ${((performance.now() - t0) / 1000).toFixed(3)} s`)
}

const peakMb = () => (process.resourceUsage().maxRSS / 1024).toFixed(0)
const secs = (t0) => ((performance.now() - t0) / 1000).toFixed(3)

warmUp()
for (const n of SIZES) {
  let edges = plantedPartition(n, 12345)
  globalThis.gc?.()
  let t0 = performance.now()
  const labeled = buildNetwork(edges)
  const build = secs(t0)
  edges = null
  globalThis.gc?.()
  const { network } = labeled
  console.log(`planted n=${network.nodeCount} m=${network.totalAdjacencyWeight > 0 ? network.offsets[network.nodeCount] / 2 : 0}: build ${build} s, peak RSS ${peakMb()} MB`)
  for (const mode of ['compat', 'quality']) {
    t0 = performance.now()
    const flat = leidenNetwork(network, { mode })
    const flatTime = secs(t0)
    const q = networkModularity(network, flat.membership)
    t0 = performance.now()
    const entries = hierarchicalLeidenNetwork(labeled, { mode })
    const hierTime = secs(t0)
    const levels = new Map()
    for (const e of entries) levels.set(e.level, (levels.get(e.level) ?? new Set()).add(e.cluster))
    const perLevel = [...levels].map(([l, s]) => `${l}:${s.size}`).join(' ')
    console.log(
      `  ${mode.padEnd(7)} flat ${flatTime} s Q=${q.toFixed(4)} communities=${flat.count} | hierarchical ${hierTime} s (+build ${build} s) levels {${perLevel}} | peak RSS ${peakMb()} MB`,
    )
  }
}
