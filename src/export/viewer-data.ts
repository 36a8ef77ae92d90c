/** What the HTML page embeds as JSON: shared by the exporter (Node) and the viewer script (browser). */

export interface ViewerNode {
  /** Entity title (the node key). */
  key: string
  type: string
  description: string
  degree: number
  x: number
  y: number
  size: number
  color: string
  community: number
}

/** [source index, target index, weight, description]: arrays, since a big graph has many edges. */
export type ViewerEdge = [number, number, number, string]

export interface ViewerCommunity {
  community: number
  level: number
  size: number
  color: string
  /** The report's title, else the community's own title. */
  title: string
  /** The report's summary, '' when the community has no report. */
  summary: string
}

export interface ViewerData {
  title: string
  /** The community level nodes are coloured by. */
  level: number
  /** Every community level of the index, ascending (the web UI offers them). */
  levels: number[]
  nodes: ViewerNode[]
  edges: ViewerEdge[]
  /** Communities nodes are coloured by, largest first. */
  communities: ViewerCommunity[]
}

/** The id of the `<script type="application/json">` element holding the data. */
export const VIEWER_DATA_ID = 'graphrag-data'
