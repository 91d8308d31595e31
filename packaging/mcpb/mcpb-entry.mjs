// Entry of the MCP Bundle (.mcpb): turns the bundle's user_config (passed as environment, see
// manifest.json) into browser-agent-mcp's flags, then runs the packaged server.
const flags = [];
if (process.env.BROWSER_AGENT_MCPB_LAUNCH !== 'false') flags.push('--launch');
const project = process.env.BROWSER_AGENT_MCPB_PROJECT;
// An unset optional value may arrive empty or as the unreplaced placeholder.
if (project && !project.startsWith('${')) flags.push('--project', project);
process.argv.splice(2, 0, ...flags);
await import('./bin/browser-agent-mcp.js');
