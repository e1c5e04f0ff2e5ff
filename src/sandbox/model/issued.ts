// The AWS identities an account has issued. AWS makes an instance id, a launch template id and an
// Auto Scaling group's name unique in the account and region (an instance id beyond it); the
// sandbox draws them from each scenario's seeded stream, and two worlds in one account
// (world/account.ts) could draw the same one: the same seed, or seeds whose streams meet
// (mulberry32's state is a counter, so every seed walks one cycle of 2^32 states, and a world's
// stretch of it can run into another's). An account keeps every id its worlds have issued, and
// a world draws again where it drew one already taken, as AWS never issues an id twice. A world
// on its own keeps none, draws once, and replays exactly as before.

export class IssuedIds {
  readonly #ids = new Set<string>();

  /** An identity a scenario names itself (a group's name): no drawn id takes it. */
  claim(id: string): void {
    this.#ids.add(id);
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** `draw()` again until it gives an id not issued yet, which is issued from then on. */
  fresh(draw: () => string): string {
    for (;;) {
      const id = draw();
      if (!this.#ids.has(id)) {
        this.#ids.add(id);
        return id;
      }
    }
  }
}

/** An id drawn once where no account keeps them (a world on its own), else a fresh one. */
export function freshId(issued: IssuedIds | undefined, draw: () => string): string {
  return issued ? issued.fresh(draw) : draw();
}
