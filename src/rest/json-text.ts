/**
 * @module rest/json-text
 * A response body that is already encoded, so hot read-mostly documents (discovery) are served without
 * re-encoding. `value()` gives the object back when `_fields`, `_embed` or `_envelope` need it.
 */
export class JsonText {
  readonly #value: () => unknown;
  #bytes: Buffer | undefined;
  constructor(
    readonly text: string,
    value: () => unknown,
  ) {
    this.#value = value;
  }
  value(): unknown {
    return this.#value();
  }
  /** The UTF-8 bytes, encoded once per instance (instances are cached by their producers). */
  get bytes(): Buffer {
    return (this.#bytes ??= Buffer.from(this.text, 'utf8'));
  }
  toJSON(): unknown {
    return this.#value();
  }
}

/** A non-JSON body (oEmbed XML, iCalendar, HTML). Served as is. */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: string | Buffer,
  ) {}
}
