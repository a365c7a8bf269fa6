// A club started from nothing through the generated TypeScript types (openapi-typescript) and
// openapi-fetch, as docs/api.md ("Start a club from nothing") shows it, with an account's API
// token and nothing else: the club (the token's account becomes its owner), an organizer invited
// by a one-time link, players added in bulk (sent twice with one Idempotency-Key: added once),
// the club's players found by a search and read page by page, then a game started with four of
// them by id. `tsc --strict` checks it (.ci/clients); run against a server it prints what it did.
//
//   node start-club.js http://127.0.0.1:8000 TOKEN
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";

type ClubPlayer = components["schemas"]["ClubPlayer"];
type Client = ReturnType<typeof createClient<paths>>;

const NAMES = ["Anna Rossi", "Bruno Bianchi", "Carla Neri", "Dario Russo", "Elena Gallo", "Franca Conti"];

function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${answer.response.status}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

// The club's players whose name holds `search`, read page by page (`next` until null).
async function players(api: Client, slug: string, search: string, size: number) {
  const found: ClubPlayer[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = ok(
      await api.GET("/api/v1/clubs/{slug}/players/", {
        params: { path: { slug }, query: { search, page_size: size, cursor } },
      }),
    );
    found.push(...page.results);
    if (page.next === null) return found;
    cursor = new URL(page.next).searchParams.get("cursor") ?? undefined;
  }
}

async function main(baseUrl: string, token: string) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Token ${token}` } });
  const slug = `circolo-${crypto.randomUUID().slice(0, 8)}`;

  const started = await api.POST("/api/v1/clubs/", {
    params: { header: { "Idempotency-Key": crypto.randomUUID() } },
    body: { name: "Circolo del Ponte", slug, time_zone: "Europe/Rome" },
  });
  const club = ok(started);
  check(club.role === "owner", `role ${club.role}`);
  console.log("club", club.slug, "at", started.response.headers.get("Location"), "role", club.role);

  const invited = ok(
    await api.POST("/api/v1/clubs/{slug}/invitations/", {
      params: { path: { slug } },
      body: { role: "organizer" },
    }),
  );
  check(typeof invited.url === "string", "no link"); // no address: the link, shown this once
  console.log("invited an organizer:", invited.id, "until", invited.expires_at);
  const pending = ok(await api.GET("/api/v1/clubs/{slug}/invitations/", { params: { path: { slug } } }));
  check(pending.results.length === 1 && pending.results[0].id === invited.id, "pending");

  // The list sent twice under one key (a phone retrying after a timeout): added once.
  const key = crypto.randomUUID();
  const bulk = () =>
    api.POST("/api/v1/clubs/{slug}/players/bulk/", {
      params: { path: { slug }, header: { "Idempotency-Key": key } },
      body: { text: NAMES.slice(0, 4).join("\n") },
    });
  const added = ok(await bulk());
  const again = await bulk();
  check(again.response.headers.get("Idempotent-Replayed") === "true", "no replay");
  console.log("bulk: created", added.created.map((p) => p.name));
  const second = ok(
    await api.POST("/api/v1/clubs/{slug}/players/bulk/", {
      params: { path: { slug } },
      body: { text: [NAMES[0].toUpperCase(), NAMES[1], ...NAMES.slice(4)].join("\n") },
    }),
  );
  console.log(
    "bulk: created",
    second.created.map((p) => p.name),
    "existing",
    second.existing.map((p) => [p.id, p.name]),
  );
  check(second.existing.map((p) => p.id).join() === added.created.slice(0, 2).map((p) => p.id).join(), "ids");
  const one = ok(
    await api.POST("/api/v1/clubs/{slug}/players/", {
      params: { path: { slug } },
      body: { display_name: "Gino Ferri" },
    }),
  );
  console.log("player", one.id, one.name);

  const everyone = await players(api, slug, "", 3);
  console.log("players, 3 a page:", everyone.map((p) => p.name));
  check(everyone.length === NAMES.length + 1, "every player");
  const found = await players(api, slug, "RI", 50);
  console.log("search 'RI':", found.map((p) => [p.id, p.name]));
  check(found.map((p) => p.name).join() === "Carla Neri,Dario Russo,Gino Ferri", "search");

  const four = everyone.slice(0, 4).map((p) => p.id);
  const game = ok(
    await api.POST("/api/v1/clubs/{slug}/games/", {
      params: { path: { slug }, header: { "Idempotency-Key": crypto.randomUUID() } },
      body: { ruleset: "turkish", players: four },
    }),
  );
  console.log("game", game.id, game.ruleset, "with", game.seats.map((seat) => seat.name));
  check(game.seats.map((seat) => seat.player).join() === four.join(), "seats");
  console.log("Club started.");
}

// Node's own global, declared here rather than with @types/node.
declare const process: { argv: string[] };
const [baseUrl, token] = process.argv.slice(2);
await main(baseUrl, token);
