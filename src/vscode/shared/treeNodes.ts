/** The rows of the Servers view, as commands of every feature receive them (a click or a context menu passes the row). */
import type { NamedTool } from '../../manager/manager';
import type { Prompt, Resource, ResourceTemplate } from '../../protocol/schema';
import type { Skill } from '../../manager/context/skills';

/** The lists under a running server (skills only for a server that offers the Skills extension). */
export type GroupKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts' | 'skills';

/** One row of the Servers tree. Server and group nodes are kept per server, so refreshes and reveal find them again. */
export type TreeNode =
	| { kind: 'server'; server: string }
	| { kind: 'group'; server: string; group: GroupKind }
	| { kind: 'tool'; server: string; tool: NamedTool }
	| { kind: 'resource'; server: string; resource: Resource }
	| { kind: 'template'; server: string; template: ResourceTemplate }
	| { kind: 'prompt'; server: string; prompt: Prompt }
	| { kind: 'skill'; server: string; skill: Skill }
	| { kind: 'message'; server: string; message: string; error: boolean; trust?: 'ask' | 'refused' }
	| { kind: 'tasks'; server: string }
	| { kind: 'task'; server: string; taskId: string };
