/**
 * Open Skill (a click on a skill's row: its SKILL.md, fetched and verified now, in a read-only editor) and Attach to
 * @mcp (fetched and verified now; the chat opens with `@mcp ` typed and the skill attached, as VS Code's own "Add File
 * to Chat" attaches a file; the request then sends the verified text to the model, chat/chatReferences.ts). From the palette, both pick among
 * the running servers' skills.
 */
import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { errorMessage } from '../../common/errors';
import type { Skill } from '../../manager/context/skills';
import { parseSkillUri, skillUri } from '../shared/skillUris';
import type { SkillDocuments } from './skillDocuments';
import type { SkillListings } from './skillListings';

/** A skill as a command receives it: a skill row of the Servers tree, or a skill document's URI (its editor title). */
type SkillTarget = { kind?: string; server?: string; skill?: Skill } | vscode.Uri | undefined;

/** The server and name of `target`, or a pick among every listed skill when there is none. */
async function skillOf(
	target: SkillTarget,
	listings: SkillListings,
	title: string,
): Promise<{ server: string; name: string } | undefined> {
	if (target instanceof vscode.Uri) return parseSkillUri(target);
	if (target?.kind === 'skill' && target.server && target.skill)
		return { server: target.server, name: target.skill.frontmatter.name };
	const all = await listings.all();
	if (all.length === 0) {
		void vscode.window.showInformationMessage('No running MCP server offers skills.');
		return undefined;
	}
	const picked = await vscode.window.showQuickPick(
		all.map(({ server, skill }) => ({
			label: skill.frontmatter.name,
			description: server,
			detail: skill.frontmatter.description,
			server,
		})),
		{ title, matchOnDescription: true, matchOnDetail: true },
	);
	return picked && { server: picked.server, name: picked.label };
}

/**
 * Fetches and verifies the skill (SkillDocuments keeps it for this connection), then runs `use` with its document.
 * A skill that cannot be fetched or does not match its listing (size, digest, frontmatter) goes no further: an error
 * names the skill, its server and why. Resolves to that error's text, if any.
 */
async function withVerifiedSkill(
	documents: SkillDocuments,
	skill: { server: string; name: string },
	use: (uri: vscode.Uri) => Thenable<unknown>,
): Promise<string | undefined> {
	try {
		await documents.load(skill.server, skill.name);
		await use(skillUri(skill.server, skill.name));
		return undefined;
	} catch (error) {
		const message = errorMessage(error);
		void vscode.window.showErrorMessage(message);
		return message;
	}
}

/** Registers Open Skill and Attach to @mcp. */
export function registerSkillCommands(listings: SkillListings, documents: SkillDocuments): vscode.Disposable {
	return vscode.Disposable.from(
		vscode.commands.registerCommand(Commands.openSkill, async (target?: SkillTarget) => {
			const skill = await skillOf(target, listings, 'Open Skill');
			return (
				skill &&
				withVerifiedSkill(documents, skill, async (uri) =>
					vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true }),
				)
			);
		}),
		vscode.commands.registerCommand(Commands.attachSkill, async (target?: SkillTarget) => {
			const skill = await skillOf(target, listings, 'Attach a Skill to @mcp');
			// Verified first, so a tampered skill is refused when the user acts, not silently in a later request. The
			// chat opens with `@mcp ` typed for the request to follow; VS Code turns the attachment into its reference.
			return (
				skill &&
				withVerifiedSkill(documents, skill, (uri) =>
					vscode.commands.executeCommand('workbench.action.chat.open', {
						query: '@mcp ',
						isPartialQuery: true,
						attachFiles: [uri],
					}),
				)
			);
		}),
	);
}
