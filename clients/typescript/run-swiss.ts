// A Swiss with registration run through the generated TypeScript types (openapi-typescript) and
// openapi-fetch, as docs/api.md ("Run a Swiss with registration") shows it, from an organizer's
// API token: a Briscola singles Swiss in the club, registration opened, eight people registered
// anonymously (as the public does, each confirming by the token of the e-mail it was sent),
// registration closed, then two rounds: generated, published, each table's game played to its
// end hand by hand, closed; and the standings read and printed. Every write sends an
// Idempotency-Key. `tsc --strict` checks it (.ci/clients); run against a server it prints what
// it did. The e-mails are read where the server writes them (its file e-mail backend's
// EMAIL_FILE_PATH), the way a registrant reads theirs.
//
//   node run-swiss.js http://127.0.0.1:8000 TOKEN club-slug MAIL_DIRECTORY
import createClient from "openapi-fetch";
import type { paths } from "./generated/schema.js";

type Client = ReturnType<typeof createClient<paths>>;
// The two functions of Node's fs used here, declared rather than with @types/node.
type Files = {
  readdirSync(path: string): string[];
  readFileSync(path: string, encoding: "utf8"): string;
};

const NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Giulia", "Marco"];
// The token in the API form of the e-mail's confirmation link.
const TOKEN = /registrations\/confirm\/ with \{"token": "([^"]+)"\}/g;

function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${answer.response.status}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

const key = () => ({ "Idempotency-Key": crypto.randomUUID() });

// The confirmation token of the last e-mail to `address` that has one: the file backend writes
// each message as sent (quoted-printable: its soft line breaks undone), a line of dashes between.
function confirmToken(files: Files, mailDir: string, address: string): string {
  const tokens: string[] = [];
  for (const name of files.readdirSync(mailDir).sort()) {
    for (const message of files.readFileSync(`${mailDir}/${name}`, "utf8").split("-".repeat(79))) {
      if (!message.split("\n").includes(`To: ${address}`)) continue;
      const text = message.replace(/=\r?\n/g, "");
      for (const match of text.matchAll(TOKEN)) tokens.push(match[1]);
    }
  }
  check(tokens.length > 0, `no e-mail with a token to ${address}`);
  return tokens[tokens.length - 1];
}

// Round `number` generated, published, every table's game played to its end, closed.
async function playRound(api: Client, competition_id: number, number: number) {
  const path = { competition_id, number };
  ok(
    await api.POST("/api/v1/competitions/{competition_id}/rounds/{number}/generate/", {
      params: { path, header: key() },
      body: {},
    }),
  );
  const published = ok(
    await api.POST("/api/v1/competitions/{competition_id}/rounds/{number}/publish/", {
      params: { path, header: key() },
    }),
  );
  check(published.status === "published", `round ${number} ${published.status}`);
  for (const table of published.tables) {
    if (table.game === null) throw new Error(`table ${table.number} has no game`);
    const game = ok(await api.GET("/api/v1/games/{game_id}/", { params: { path: { game_id: table.game.id } } }));
    // The first seat wins every hand, 80 to 40, until the game ends.
    let status = game.status;
    let dealer = 0;
    let hands = 0;
    while (status === "in_progress") {
      const entered = ok(
        await api.POST("/api/v1/games/{game_id}/hands/", {
          params: { path: { game_id: game.id }, header: key() },
          body: { ruleset: "briscola", dealer, points: [80, 40], seating: game.seating },
        }),
      );
      status = entered.game.status;
      dealer = typeof entered.game.next_dealer === "number" ? entered.game.next_dealer : 0;
      hands += 1;
    }
    const seats = table.seats.map((seat) => seat.name).join(" v ");
    console.log(`round ${number} table ${table.number}: ${seats}, ${hands} hands, ${status}`);
  }
  const closed = ok(
    await api.POST("/api/v1/competitions/{competition_id}/rounds/{number}/close/", {
      params: { path, header: key() },
    }),
  );
  check(closed.status === "closed", `round ${number} ${closed.status}`);
  console.log("round", number, "closed");
}

async function main(baseUrl: string, token: string, slug: string, mailDir: string) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Token ${token}` } });
  const anonymous = createClient<paths>({ baseUrl });
  const fsModule = "node:fs"; // a name, not a literal: no declarations needed for it
  const files: Files = await import(fsModule);

  const tag = crypto.randomUUID().slice(0, 6);
  const competition = ok(
    await api.POST("/api/v1/clubs/{slug}/competitions/", {
      params: { path: { slug }, header: key() },
      body: {
        name: `Swiss ${tag}`,
        rulesets: ["briscola"],
        kind: "tournament",
        format: "swiss",
        table_size: 2,
        planned_rounds: 2,
        public: true,
      },
    }),
  );
  const competition_id = competition.id;
  console.log("competition", competition_id, competition.name, competition.format);

  const now = Date.now();
  const opened = ok(
    await api.PUT("/api/v1/competitions/{competition_id}/registration/", {
      params: { path: { competition_id }, header: key() },
      body: {
        opens_at: new Date(now - 60_000).toISOString(),
        closes_at: new Date(now + 86_400_000).toISOString(),
        capacity: NAMES.length,
        unit: "entries",
        waiting_list: true,
        eligibility: "anyone",
        note: "",
      },
    }),
  );
  check(opened.state === "open", `registration ${opened.state}`);
  console.log("registration open:", opened.places, "places");

  for (const name of NAMES) {
    const email = `${name.toLowerCase()}.${tag}@example.org`;
    const registered = ok(
      await anonymous.POST("/api/v1/competitions/{competition_id}/registrations/", {
        params: { path: { competition_id }, header: key() },
        body: { name: `${name} ${tag}`, email, partner_name: "", partner_email: "" },
      }),
    );
    check(registered.status === "unconfirmed", `${name} ${registered.status}`);
    const confirmed = ok(
      await anonymous.POST("/api/v1/registrations/confirm/", {
        params: { header: key() },
        body: { token: confirmToken(files, mailDir, email) },
      }),
    );
    check(confirmed.status === "entered" && confirmed.entry !== null, `${name} ${confirmed.status}`);
    console.log("registered and confirmed:", confirmed.name, "entry", confirmed.entry);
  }

  const closed = ok(
    await api.POST("/api/v1/competitions/{competition_id}/registration/close/", {
      params: { path: { competition_id }, header: key() },
    }),
  );
  check(closed.state === "closed" && closed.taken === NAMES.length, `registration ${closed.state}`);
  console.log("registration closed:", closed.taken, "entered");

  for (const number of [1, 2]) {
    ok(
      await api.POST("/api/v1/competitions/{competition_id}/rounds/", {
        params: { path: { competition_id }, header: key() },
        body: {},
      }),
    );
    await playRound(api, competition_id, number);
  }

  const standings = ok(
    await anonymous.GET("/api/v1/competitions/{competition_id}/standings/", {
      params: { path: { competition_id } },
    }),
  );
  console.log(`standings after round 2 (${standings.scheme_label}):`);
  const rows = standings.tables[0].rows;
  for (const row of rows) {
    const rank = String(row.rank ?? "-").padStart(2);
    console.log(`  ${rank} ${row.name.padEnd(16)} ${row.points} points, ${row.wins} wins`);
  }
  check(rows.length === NAMES.length && rows.every((row) => row.rounds === 2), "standings");
  console.log("Swiss run.");
}

// Node's own global, declared here rather than with @types/node.
declare const process: { argv: string[] };
const [baseUrl, token, club, mailDir] = process.argv.slice(2);
await main(baseUrl, token, club, mailDir);
