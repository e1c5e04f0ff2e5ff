// Paginated lists, read one page ahead.
//
// Why: a list in pages is a loop (ask, read the page, ask again with its continue token), so
// the API server sat idle while noderoll parsed and read a page, and noderoll sat idle while the
// server made the next one: reading a cluster took the server's time plus noderoll's. Here the
// next page is asked for as soon as a page's continue token is known, which is before its items
// are parsed (src/adapters/kubernetes/list-body.ts hands over the list around its items first),
// so the server makes page N+1 while noderoll parses and reads page N. The requests are the same
// ones, in the same order; only the next one leaves sooner.
//
// Every paginated read in noderoll goes to the end of its list (src/ports/paginate.ts), so the
// page asked ahead is the one asked next. A list is at most one page ahead: a page is asked for
// only once the page before it has been taken. One never taken (a read given up on an error) is
// dropped unread, the oldest first past MAX_WAITING. What a page asked ahead answers, its error
// too, is what the caller gets when it asks (resilient's retry then asks afresh).
import type { KubeCall, KubeHttp } from "./http.js";
import { queryString } from "./http.js";

/** Pages asked ahead and not yet taken, at most (one per list being read, and more to spare). */
export const MAX_WAITING = 16;

interface Page {
  answer: Promise<unknown>;
  /** The caller has it: the page after it may be asked for. */
  taken: boolean;
  /** Its continue token, once its answer has been parsed that far. */
  next?: string;
}

const keyOf = (call: KubeCall) => `${call.method} ${call.path}${queryString(call.query)}`;

export class PagesAhead {
  readonly #waiting = new Map<string, Page>();

  constructor(private readonly http: KubeHttp) {}

  /** A GET of one page of a list: the page asked ahead for it if there is one, else asked now. */
  list<T>(call: KubeCall): Promise<T> {
    const key = keyOf(call);
    const early = this.#waiting.get(key);
    if (early) {
      this.#waiting.delete(key);
      early.taken = true;
      if (early.next !== undefined) this.#ahead(call, early.next);
      return early.answer as Promise<T>;
    }
    return this.#ask(call, true).answer as Promise<T>;
  }

  /** How many pages are asked ahead and not taken (for tests). */
  get waiting(): number {
    return this.#waiting.size;
  }

  #ask(call: KubeCall, taken: boolean): Page {
    const page: Page = { answer: Promise.resolve(), taken };
    // Only a paginated list has a next page to ask for: an unlimited one is not even looked at
    // before its items (its metadata would be parsed for nothing).
    if (call.query?.limit === undefined) {
      page.answer = this.http.json(call);
      return page;
    }
    page.answer = this.http.json(call, false, (list) => {
      const next = list.metadata?.continue;
      if (!next) return undefined;
      page.next = next;
      if (!page.taken || !this.#ahead(call, next)) return undefined;
      // The request is written once this task ends (its socket is handed over on a later tick):
      // let it go before this page's items are parsed, or it would wait for them and the
      // caller's reading of them too.
      return new Promise<void>((resolve) => setImmediate(resolve));
    });
    return page;
  }

  /** Ask for the page after `call`'s; false when it is already asked for. */
  #ahead(call: KubeCall, next: string): boolean {
    const ahead = { ...call, query: { ...call.query, continue: next } };
    const key = keyOf(ahead);
    if (this.#waiting.has(key)) return false;
    const page = this.#ask(ahead, false);
    // Its error reaches the caller that takes it; one never taken must not go unhandled.
    page.answer.catch(() => undefined);
    this.#waiting.set(key, page);
    if (this.#waiting.size > MAX_WAITING)
      this.#waiting.delete(this.#waiting.keys().next().value as string);
    return true;
  }
}
