/**
 * Command ids, as contributed in package.json (category "MCP Switchboard"). One list for every feature, because
 * features run each other's commands (the status bar's list offers Start and Call Tool; chat results link to them).
 */
export const Commands = {
	startServer: 'mcpSwitchboard.startServer',
	stopServer: 'mcpSwitchboard.stopServer',
	restartServer: 'mcpSwitchboard.restartServer',
	showServerLog: 'mcpSwitchboard.showServerLog',
	refresh: 'mcpSwitchboard.refresh',
	callTool: 'mcpSwitchboard.callTool',
	runAgain: 'mcpSwitchboard.runAgain',
	readResource: 'mcpSwitchboard.readResource',
	subscribeResource: 'mcpSwitchboard.subscribeResource',
	getPrompt: 'mcpSwitchboard.getPrompt',
	copyToolName: 'mcpSwitchboard.copyToolName',
	addServer: 'mcpSwitchboard.addServer',
	openSettings: 'mcpSwitchboard.openSettings',
	showServers: 'mcpSwitchboard.showServers',
} as const;
