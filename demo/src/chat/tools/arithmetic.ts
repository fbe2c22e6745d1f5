/**
 * A small arithmetic evaluator: a tokenizer and a recursive-descent parser. The expression comes
 * from a model, so it is parsed, never handed to `eval` or `Function`.
 *
 * Grammar: numbers (`1_000`, `2.5`, `1e3`), `+ - * / % ^` (`^` is right-associative, `%` is the
 * remainder), parentheses, unary `+`/`-`, the constants `pi` and `e`, and the functions
 * `sqrt abs round floor ceil ln log min max`.
 */

export class ArithmeticError extends Error {
  override readonly name = 'ArithmeticError'
}

type Token =
  | { readonly type: 'number'; readonly value: number; readonly at: number }
  | { readonly type: 'symbol' | 'name'; readonly text: string; readonly at: number }

const MAX_LENGTH = 500
const MAX_DEPTH = 64

// Maps, not object literals: a name like `constructor` must not find Object.prototype.
const constants: ReadonlyMap<string, number> = new Map([
  ['pi', Math.PI],
  ['e', Math.E],
])
const functions: ReadonlyMap<string, { readonly arity: [number, number]; apply(values: number[]): number }> = new Map(
  Object.entries({
    sqrt: { arity: [1, 1], apply: ([value]) => Math.sqrt(value as number) },
    abs: { arity: [1, 1], apply: ([value]) => Math.abs(value as number) },
    round: { arity: [1, 1], apply: ([value]) => Math.round(value as number) },
    floor: { arity: [1, 1], apply: ([value]) => Math.floor(value as number) },
    ceil: { arity: [1, 1], apply: ([value]) => Math.ceil(value as number) },
    ln: { arity: [1, 1], apply: ([value]) => Math.log(value as number) },
    log: { arity: [1, 1], apply: ([value]) => Math.log10(value as number) },
    min: { arity: [1, 16], apply: (values) => Math.min(...values) },
    max: { arity: [1, 16], apply: (values: number[]) => Math.max(...values) },
  } satisfies Record<string, { readonly arity: [number, number]; apply(values: number[]): number }>),
)

function tokenize(expression: string): Token[] {
  const tokens: Token[] = []
  let at = 0
  while (at < expression.length) {
    const rest = expression.slice(at)
    const space = /^\s+/.exec(rest)
    if (space !== null) {
      at += space[0].length
      continue
    }
    const number = /^(?:\d[\d_]*(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?/i.exec(rest)
    if (number !== null) {
      tokens.push({ type: 'number', value: Number(number[0].replaceAll('_', '')), at })
      at += number[0].length
      continue
    }
    const name = /^[a-z]+/i.exec(rest)
    if (name !== null) {
      tokens.push({ type: 'name', text: name[0].toLowerCase(), at })
      at += name[0].length
      continue
    }
    const symbol = rest[0] as string
    if (!'+-*/%^(),'.includes(symbol))
      throw new ArithmeticError(
        `unexpected "${symbol}" at position ${at + 1}: use numbers, + - * / % ^, parentheses and ${[...functions.keys()].join(', ')}`,
      )
    tokens.push({ type: 'symbol', text: symbol, at })
    at += 1
  }
  return tokens
}

/** Evaluates `expression`; throws `ArithmeticError` with the position of the problem. */
export function evaluateArithmetic(expression: string): number {
  if (expression.length > MAX_LENGTH) throw new ArithmeticError(`the expression is longer than ${MAX_LENGTH} characters`)
  const tokens = tokenize(expression)
  if (tokens.length === 0) throw new ArithmeticError('the expression is empty')
  const parser = new Parser(tokens)
  const value = parser.sum()
  parser.expectEnd()
  if (!Number.isFinite(value)) throw new ArithmeticError('the result is not a finite number')
  return value
}

/** Recursive descent over the tokens, one method per grammar rule, evaluating as it goes. */
class Parser {
  private position = 0
  private depth = 0

  constructor(private readonly tokens: readonly Token[]) {}

  // sum := product (('+' | '-') product)*
  sum(): number {
    let value = this.product()
    while (this.isSymbol('+') || this.isSymbol('-')) {
      const operator = (this.tokens[this.position++] as { text: string }).text
      const right = this.product()
      value = operator === '+' ? value + right : value - right
    }
    return value
  }

  expectEnd(): void {
    if (this.position < this.tokens.length) throw new ArithmeticError(`unexpected ${describe(this.peek())}`)
  }

  // product := unary (('*' | '/' | '%') unary)*
  private product(): number {
    let value = this.unary()
    while (this.isSymbol('*') || this.isSymbol('/') || this.isSymbol('%')) {
      const token = this.tokens[this.position++] as { text: string; at: number }
      const right = this.unary()
      if ((token.text === '/' || token.text === '%') && right === 0) throw new ArithmeticError(`division by zero at position ${token.at + 1}`)
      value = token.text === '*' ? value * right : token.text === '/' ? value / right : value % right
    }
    return value
  }

  // unary := ('+' | '-') unary | power
  private unary(): number {
    return this.nested(() => {
      if (this.isSymbol('-')) {
        this.position++
        return -this.unary()
      }
      if (this.isSymbol('+')) {
        this.position++
        return this.unary()
      }
      return this.power()
    })
  }

  // power := primary ('^' unary)?   (right-associative: 2^3^2 = 2^9)
  private power(): number {
    const base = this.primary()
    if (!this.isSymbol('^')) return base
    this.position++
    return base ** this.unary()
  }

  // primary := number | constant | function '(' sum (',' sum)* ')' | '(' sum ')'
  private primary(): number {
    const token = this.peek()
    if (token === undefined) throw new ArithmeticError('the expression ends too early')
    if (token.type === 'number') {
      this.position++
      return token.value
    }
    if (token.type === 'symbol' && token.text === '(') {
      this.position++
      const value = this.nested(() => this.sum())
      this.expect(')')
      return value
    }
    if (token.type === 'name') {
      this.position++
      return this.named(token.text, token.at)
    }
    throw new ArithmeticError(`unexpected ${describe(token)}`)
  }

  // A constant, or a function call: name '(' sum (',' sum)* ')'
  private named(name: string, at: number): number {
    const constant = constants.get(name)
    if (constant !== undefined) return constant
    const fn = functions.get(name)
    if (fn === undefined) throw new ArithmeticError(`unknown name "${name}" at position ${at + 1}`)
    this.expect('(')
    const values = [this.nested(() => this.sum())]
    while (this.isSymbol(',')) {
      this.position++
      values.push(this.nested(() => this.sum()))
    }
    this.expect(')')
    const [least, most] = fn.arity
    if (values.length < least || values.length > most)
      throw new ArithmeticError(`${name}() takes ${least === most ? least : `${least} to ${most}`} arguments, got ${values.length}`)
    return fn.apply(values)
  }

  private peek(): Token | undefined {
    return this.tokens[this.position]
  }

  private isSymbol(text: string): boolean {
    const token = this.peek()
    return token !== undefined && token.type === 'symbol' && token.text === text
  }

  private expect(text: string): void {
    if (!this.isSymbol(text)) throw new ArithmeticError(`expected "${text}" but found ${describe(this.peek())}`)
    this.position++
  }

  // Bounded recursion: hostile input cannot overflow the stack.
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new ArithmeticError(`the expression nests deeper than ${MAX_DEPTH} levels`)
    try {
      return parse()
    } finally {
      this.depth--
    }
  }
}

function describe(token: Token | undefined): string {
  return token === undefined ? 'the end of the expression' : `"${token.type === 'number' ? token.value : token.text}" at position ${token.at + 1}`
}

/** A result without float noise: `0.1 + 0.2` gives `0.3`. */
export function roundResult(value: number): number {
  return Number.parseFloat(value.toPrecision(12))
}
