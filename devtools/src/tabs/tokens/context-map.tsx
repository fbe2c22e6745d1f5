import type { ProjectedMessage, ProjectionResult } from '@threadlens/core'
import { useMemo, useState } from 'react'
import { contextMap, contextPartLabels, type ContextBlock, type ContextMapModel } from '../../view-models/context-blocks'
import { messagePreview, messageRole } from '../../view-models/message-preview'
import { formatNumber, formatPercent } from '../../view-models/meter-parts'
import { squarify, type Box } from '../../view-models/treemap'
import { usePanel } from '../../panel/panel-context'

// Tiles are laid out in a 2:1 box and drawn in percentages of it, so any width works.
const BOX: Box = { x: 0, y: 0, width: 200, height: 100 }
const MESSAGES_LISTED = 50
// In box units (the box is 200 × 100): about two short words on two lines at the panel's usual widths.
const LABEL_MIN = { width: 16, height: 12 }

interface Tile {
  readonly block: ContextBlock
  readonly box: Box
}

function layout(model: ContextMapModel): Tile[] {
  const groups = squarify(
    model.groups.map((group) => ({ value: group.tokens, data: group })),
    BOX,
  )
  return groups.flatMap((group) =>
    squarify(
      group.data.blocks.map((block) => ({ value: block.tokens, data: block })),
      group,
    ).map((tile) => ({ block: tile.data, box: tile })),
  )
}

const percentBox = (box: Box) => ({
  left: `${(box.x / BOX.width) * 100}%`,
  top: `${(box.y / BOX.height) * 100}%`,
  width: `${(box.width / BOX.width) * 100}%`,
  height: `${(box.height / BOX.height) * 100}%`,
})

/** The tokens of the block's part (all its messages together). */
const partTokens = (model: ContextMapModel, block: ContextBlock) => model.groups.find((group) => group.part === block.part)?.tokens ?? 0

/** A block in words: its part and label, its tokens, and its share of its part and of the input budget. */
function describeBlock(model: ContextMapModel, block: ContextBlock): string {
  return `${contextPartLabels[block.part]} · ${block.label}: ${formatNumber(block.tokens)} tokens, ${formatPercent(block.tokens / Math.max(1, partTokens(model, block)))} of ${contextPartLabels[block.part]}, ${formatPercent(block.tokens / Math.max(1, model.budget))} of the input budget`
}

/**
 * What takes the room in the request, as a treemap: parts (tool schemas, system, memory, summary,
 * history, pending, free) split into their messages, every area a share of the input budget.
 * Clicking a tile lists its messages and entries.
 */
export function ContextMap({ result }: { readonly result: ProjectionResult }) {
  const model = useMemo(() => contextMap(result), [result])
  const tiles = useMemo(() => layout(model), [model])
  const [selectedKey, setSelectedKey] = useState<string | undefined>(undefined)
  const selected = tiles.find((tile) => tile.block.key === selectedKey)?.block ?? model.largest.find((block) => block.key === selectedKey)
  const describe = (block: ContextBlock) => describeBlock(model, block)
  return (
    <section
      className="tl-card tl-context"
      aria-label="context at a glance"
      data-testid="context-map"
      data-budget={model.budget}
      data-used={model.used}
    >
      <h3 className="tl-h">What takes the room</h3>
      <p className="tl-muted">
        The box is the input budget, {formatNumber(model.budget)} tokens; {formatNumber(model.used)} used (
        {formatPercent(model.used / Math.max(1, model.budget))}){model.overflow ? ': over budget, the box stands for the whole request' : ''}. Click a
        tile for its messages.
      </p>
      <div className="tl-map" data-testid="context-map-tiles">
        {tiles.map((tile) => (
          <button
            key={tile.block.key}
            type="button"
            className={`tl-tile tl-tile-${tile.block.part}`}
            style={percentBox(tile.box)}
            data-testid="context-tile"
            data-part={tile.block.part}
            data-tokens={tile.block.tokens}
            aria-pressed={selectedKey === tile.block.key}
            title={`${describe(tile.block)}\n${tile.block.preview}`}
            onClick={() => setSelectedKey(selectedKey === tile.block.key ? undefined : tile.block.key)}
          >
            {/* Tiles too small to read carry their words in the label and tooltip only. */}
            {tile.box.width >= LABEL_MIN.width && tile.box.height >= LABEL_MIN.height ? (
              <>
                <span className="tl-tile-label">{tile.block.label}</span>
                <span className="tl-tile-label">{formatNumber(tile.block.tokens)}</span>
              </>
            ) : null}
            {/* The accessible name is what the tile shows, then the rest of its story, heard but not seen. */}
            <span className="tl-visually-hidden">{describe(tile.block)}</span>
          </button>
        ))}
      </div>
      <div className="tl-reserved" data-testid="context-reserved">
        <span className="tl-swatch tl-part-reserved" aria-hidden="true" /> reserved output {formatNumber(model.reserved)} tokens: outside the input
        budget, kept for the reply
      </div>
      <div className="tl-row tl-context-parts">
        {model.groups.map((group) => (
          <span key={group.part} className="tl-nowrap" data-testid={`context-part-${group.part}`}>
            <span className={`tl-swatch tl-part-${group.part === 'free' ? 'free' : group.part} tl-inline-swatch`} aria-hidden="true" />{' '}
            {contextPartLabels[group.part]} <span className="tl-num">{formatNumber(group.tokens)}</span>{' '}
            <span className="tl-muted">({formatPercent(group.tokens / Math.max(1, model.budget))})</span>
          </span>
        ))}
      </div>
      <LargestConsumers model={model} onSelect={setSelectedKey} />
      {selected === undefined ? null : (
        <BlockEntries block={selected} result={result} summary={describe(selected)} onClose={() => setSelectedKey(undefined)} />
      )}
    </section>
  )
}

/** The blocks that take the most room, largest first, each with its share of its part; clicking one lists its messages. */
function LargestConsumers({ model, onSelect }: { readonly model: ContextMapModel; onSelect(key: string): void }) {
  return (
    <>
      <h4 className="tl-h">Largest consumers</h4>
      <ol className="tl-largest" data-testid="context-largest">
        {model.largest.map((block) => (
          <li key={block.key}>
            <button type="button" className="tl-link tl-largest-item" onClick={() => onSelect(block.key)} title={describeBlock(model, block)}>
              <span className="tl-num">{formatNumber(block.tokens)}</span> <strong>{block.label}</strong>{' '}
              <span className="tl-muted">
                {formatPercent(block.tokens / Math.max(1, partTokens(model, block)))} of {contextPartLabels[block.part]} (
                {formatNumber(partTokens(model, block))})
              </span>{' '}
              <span className="tl-preview tl-one-line">{block.preview}</span>
            </button>
          </li>
        ))}
      </ol>
    </>
  )
}

function BlockEntries({
  block,
  result,
  summary,
  onClose,
}: {
  readonly block: ContextBlock
  readonly result: ProjectionResult
  readonly summary: string
  readonly onClose: () => void
}) {
  const panel = usePanel()
  const openInTimeline = (seq: number) => {
    panel.selectSeq(seq)
    panel.ui.getState().setTab('timeline')
  }
  const positions = block.positions.slice(0, MESSAGES_LISTED)
  return (
    <div className="tl-card" data-testid="context-block" data-key={block.key} aria-live="polite">
      <div className="tl-row">
        <strong className="tl-grow">{summary}</strong>
        <button type="button" className="tl-button" onClick={onClose} aria-label="close tile details">
          ×
        </button>
      </div>
      {positions.length === 0 ? <p className="tl-muted">{block.preview}</p> : null}
      <ul className="tl-block-list">
        {positions.map((position) => {
          const message = result.messages[position] as ProjectedMessage
          const info = result.meta.messages[position]
          return (
            <li key={position} data-testid="context-block-message">
              <span className="tl-role">{messageRole(message)}</span> <span className="tl-num">{formatNumber(info?.tokens ?? 0)} tok</span>
              {info?.reduced === undefined ? null : <span className="tl-badge tl-warn">{info.reduced}</span>}{' '}
              {(info?.seqs ?? []).map((seq) => (
                <button
                  key={seq}
                  type="button"
                  className="tl-link tl-mono"
                  onClick={() => openInTimeline(seq)}
                  title="show this entry in the timeline"
                >
                  #{seq}
                </button>
              ))}
              <div className="tl-preview">{messagePreview(message, 300)}</div>
            </li>
          )
        })}
      </ul>
      {block.positions.length > positions.length ? <p className="tl-muted">… and {block.positions.length - positions.length} more messages</p> : null}
    </div>
  )
}
