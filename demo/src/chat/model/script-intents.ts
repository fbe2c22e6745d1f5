import type { JsonObject } from '@threadlens/core'
import { findUnit } from '../tools/units'

/** What the offline model makes of the user's latest message. */
export type Intent =
  | { readonly type: 'error' }
  | { readonly type: 'tools'; readonly calls: readonly { readonly name: string; readonly arguments: JsonObject }[] }
  | { readonly type: 'recall' }
  | { readonly type: 'chat' }

const functionNames = 'sqrt|abs|round|floor|ceil|ln|log|min|max|pi'

/** Words and symbols people type for operators, rewritten to the calculator's syntax. */
function normalizeArithmetic(text: string): string {
  return text
    .replace(/\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b/g, ' ') // dates and times are not sums
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/(\d+(?:\.\d+)?)\s*%\s*of\s*(\d+(?:\.\d+)?)/gi, '($1 / 100 * $2)')
    .replace(/([\d)])\s*[x×]\s*(?=[\d(])/gi, '$1 * ')
    .replace(/÷/g, ' / ')
    .replace(/\bplus\b/gi, ' + ')
    .replace(/\bminus\b/gi, ' - ')
    .replace(/\b(?:times|multiplied by)\b/gi, ' * ')
    .replace(/\bdivided by\b/gi, ' / ')
    .replace(/\bto the power of\b/gi, ' ^ ')
    .replace(/\bsquared\b/gi, ' ^ 2')
    .replace(/\bsquare root of\s*(\d+(?:\.\d+)?)/gi, 'sqrt($1)')
}

/** The longest run of arithmetic in `text` with a number and an operator or function, e.g. `"(12 + 7) * 3"`. */
export function findExpression(text: string): string | undefined {
  const normalized = normalizeArithmetic(text)
  const token = new RegExp(`(?:${functionNames})\\b|\\d+(?:\\.\\d+)?|[-+*/^%(),]`, 'gi')
  let best: string | undefined
  let run: { start: number; end: number; numbers: number; operators: number } | undefined
  const close = () => {
    if (run !== undefined && run.numbers > 0 && run.operators > 0) {
      const candidate = normalized
        .slice(run.start, run.end)
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^[,)*/^%]+|[,(+\-*/^%]+$/g, '')
        .trim()
      if (candidate !== '' && (best === undefined || candidate.length > best.length)) best = candidate
    }
    run = undefined
  }
  for (const match of normalized.matchAll(token)) {
    const start = match.index
    const text = match[0]
    if (run !== undefined && normalized.slice(run.end, start).trim() !== '') close()
    run ??= { start, end: start, numbers: 0, operators: 0 }
    run.end = start + text.length
    if (/^\d/.test(text)) run.numbers++
    else if (/^[-+*/^%]$/.test(text) || /^[a-z]/i.test(text)) run.operators++
  }
  close()
  return best
}

const conversionPattern = /(-?\d+(?:\.\d+)?)\s*(°?\s?[a-z]+(?:\s(?:miles?))?)\s+(?:to|in|into|as)\s+(°?\s?[a-z]+(?:\s(?:miles?))?)/i

/** `5 km to miles`, `72 °F in celsius`: a value and two known units, or `undefined`. */
export function findConversion(text: string): { value: number; from: string; to: string; match: string } | undefined {
  const match = conversionPattern.exec(text.replace(/(\d),(?=\d{3}\b)/g, '$1'))
  if (match === null) return undefined
  const [whole, value, from, to] = match as unknown as [string, string, string, string]
  if (findUnit(from) === undefined || findUnit(to) === undefined) return undefined
  return { value: Number(value), from: from.replace(/\s+/g, ' ').trim(), to: to.replace(/\s+/g, ' ').trim(), match: whole }
}

const rememberPattern = /^\s*(?:please\s+)?(?:remember|note(?: down)?|make a note|save a note|keep in mind)\b\s*(?:that|:|,)?\s*(.+)$/is

/** The note in "remember that …" / "note: …". */
export function findNote(text: string): string | undefined {
  const match = rememberPattern.exec(text)
  const note = match?.[1]?.trim().replace(/[.!]+$/, '')
  return note === undefined || note === '' ? undefined : note
}

/** The document in "read the quarterly report", "summarize the design document". */
export function findDocument(text: string): string | undefined {
  if (!/\b(?:read|document|documents|report|reports)\b/i.test(text)) return undefined
  const named = /\b(?:read|open)\s+(?:me\s+)?(?:the\s+|a\s+|an\s+|our\s+|my\s+)?(.+?)\s*[.?!]*$/is.exec(text)?.[1]
  if (named !== undefined && named.trim() !== '') return named.trim().slice(0, 200)
  const phrase =
    /\b(?:the|a|an|my|our|this)\s+((?:[\w-]+\s+){0,2}(?:document|report))/i.exec(text)?.[1] ?? /((?:[\w-]+\s+)?(?:document|report))/i.exec(text)?.[1]
  return (phrase ?? 'quarterly report').trim().slice(0, 200)
}

/** Decides what to do with the user's latest message: which tools to call, if any. */
export function intentOf(text: string): Intent {
  if (/^\s*\/error\b/i.test(text)) return { type: 'error' }
  const note = findNote(text)
  if (note !== undefined) return { type: 'tools', calls: [{ name: 'save_note', arguments: { text: note } }] }
  const calls: { name: string; arguments: JsonObject }[] = []
  let rest = text
  const conversion = findConversion(text)
  if (conversion !== undefined) {
    calls.push({ name: 'convert_units', arguments: { value: conversion.value, from: conversion.from, to: conversion.to } })
    rest = rest.replace(conversion.match, ' ')
  }
  const document = findDocument(rest)
  if (document !== undefined) calls.push({ name: 'read_document', arguments: { name: document } })
  else {
    const expression = findExpression(rest)
    if (expression !== undefined) calls.push({ name: 'calculator', arguments: { expression } })
  }
  if (calls.length > 0) return { type: 'tools', calls }
  if (/\b(?:what do you (?:remember|know)|my notes|what notes|recall)\b/i.test(text)) return { type: 'recall' }
  return { type: 'chat' }
}
