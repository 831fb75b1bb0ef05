// The ledger of one model request (an `@mcp` answer, a gateway session): the estimated tokens each server put into
// the model's context, by kind, so a user can see where the context went.

/** What the tokens were spent on. */
export type LedgerKind = 'definitions' | 'instructions' | 'skills' | 'results';

const KINDS: readonly LedgerKind[] = ['definitions', 'instructions', 'skills', 'results'];

/** The row of Switchboard's own tools (`search_tools`, `read_result`, `load_skill`). */
export const SWITCHBOARD_ROW = '(MCP Switchboard)';

/** One server's figures. */
export type LedgerRow = { server: string; total: number } & Record<LedgerKind, number>;

/**
 * Estimated tokens by server and kind. Definitions count once per tool offered (what the context holds; a
 * model request round sends them again), instructions once per server, results and skills each time.
 */
export class ContextLedger {
	private readonly rowsByServer = new Map<string, LedgerRow>();
	private readonly counted = new Set<string>();

	/** Adds `tokens` of `kind` to `server`. With `once`, a key already counted is not counted again. */
	add(server: string, kind: LedgerKind, tokens: number, once?: string): void {
		if (once !== undefined) {
			if (this.counted.has(once)) return;
			this.counted.add(once);
		}
		let row = this.rowsByServer.get(server);
		if (!row) {
			row = { server, definitions: 0, instructions: 0, skills: 0, results: 0, total: 0 };
			this.rowsByServer.set(server, row);
		}
		row[kind] += tokens;
		row.total += tokens;
	}

	/** The rows, largest total first. */
	rows(): LedgerRow[] {
		return [...this.rowsByServer.values()].sort((a, b) => b.total - a.total || a.server.localeCompare(b.server));
	}

	/** The sum of every row. */
	total(): LedgerRow {
		const sum: LedgerRow = { server: 'all', definitions: 0, instructions: 0, skills: 0, results: 0, total: 0 };
		for (const row of this.rowsByServer.values())
			for (const kind of [...KINDS, 'total'] as const) sum[kind] += row[kind];
		return sum;
	}

	/** One line for a log: the sum, then each server's figures. */
	logLine(): string {
		const figures = (row: LedgerRow) =>
			`${row.total} (definitions ${row.definitions}, instructions ${row.instructions}, skills ${row.skills}, results ${row.results})`;
		const servers = this.rows().map((row) => `${row.server} ${figures(row)}`);
		return `estimated tokens ${figures(this.total())}${servers.length > 0 ? `; ${servers.join('; ')}` : ''}`;
	}
}

const cell = (n: number) => n.toLocaleString('en-US');
const escaped = (server: string) => server.replace(/([\\|*_[\]<>`])/g, '\\$1');

/** A Markdown table of ledger rows whose last row is the sum (as `rows()` then `total()` give them). */
export function ledgerTable(rows: readonly LedgerRow[]): string {
	const line = (row: LedgerRow, name: string) =>
		`| ${name} | ${cell(row.definitions)} | ${cell(row.instructions)} | ${cell(row.skills)} | ${cell(row.results)} | ${cell(row.total)} |`;
	return [
		'| server | definitions | instructions | skills | results | total |',
		'| --- | ---: | ---: | ---: | ---: | ---: |',
		...rows.slice(0, -1).map((row) => line(row, escaped(row.server))),
		...rows.slice(-1).map((row) => line(row, '**all**')),
	].join('\n');
}

/** One Markdown line of the sum and each server's total, largest first: what an answer shows under it. */
export function ledgerSummary(rows: readonly LedgerRow[]): string {
	const total = rows[rows.length - 1]?.total ?? 0;
	const servers = rows.slice(0, -1).map((row) => `${escaped(row.server)} ${cell(row.total)}`);
	return `Context: about ${cell(total)} tokens of MCP definitions, instructions and results${servers.length > 0 ? ` (${servers.join(' · ')})` : ''}`;
}
