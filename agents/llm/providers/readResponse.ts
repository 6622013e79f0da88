/**
 * A standard Response over an answer already read whole (lightFetch's). The SDKs read a non-streamed
 * answer once, with json() or text(); those two decode the bytes directly. A Response made from bytes
 * puts them behind a WHATWG stream first, which cost 20–30 µs a call in a busy loop and about 0.1 ms
 * woken after a model's wait (`npm run bench -- llm`). Every other way of reading (body, arrayBuffer,
 * blob, formData, clone) gets a Response of the same bytes, made when first asked for.
 */
const decoder = new TextDecoder();

export class ReadResponse extends Response {
  readonly #bytes: Uint8Array | null;
  readonly #init: ResponseInit;
  #whole: Response | undefined;
  #read = false;

  constructor(bytes: Uint8Array | null, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
    this.#init = init;
    // Own accessors: the base class declares body and bodyUsed as fields, so a subclass cannot override them with getters.
    Object.defineProperties(this, {
      body: { get: () => this.#standard().body },
      bodyUsed: { get: () => this.#read || (this.#whole?.bodyUsed ?? false) },
    });
  }

  override readonly text = async (): Promise<string> => (this.#whole ? this.#whole.text() : decoder.decode(this.#take()));
  override readonly json = async (): Promise<unknown> => JSON.parse(await this.text());
  override readonly arrayBuffer = (): Promise<ArrayBuffer> => this.#standard().arrayBuffer();
  override readonly blob = (): Promise<Blob> => this.#standard().blob();
  override readonly formData = (): Promise<FormData> => this.#standard().formData();
  override readonly clone = (): Response => {
    if (this.bodyUsed) throw new TypeError('Response.clone: the body has already been read');
    return this.#whole ? this.#whole.clone() : new ReadResponse(this.#bytes, this.#init);
  };

  /** The bytes, once: a body is read at most once, as with any Response. */
  #take(): Uint8Array {
    if (this.#read) throw new TypeError('Body is unusable: the body has already been read');
    this.#read = true;
    return this.#bytes ?? new Uint8Array(0);
  }

  /** The same answer as a Response made from its bytes (without them once text() or json() took them). */
  #standard(): Response {
    this.#whole ??= new Response(this.#read ? null : this.#bytes, this.#init);
    return this.#whole;
  }
}
