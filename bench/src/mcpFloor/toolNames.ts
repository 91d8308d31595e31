/** The floor over MCP's tools: one per Agent step, shared by its server and its client. */
export const MCP_FLOOR_TOOLS = {
  goto: 'navigate',
  back: 'navigate_back',
  read: 'snapshot',
  find: 'find',
  click: 'click',
  type: 'type',
  select: 'select_option',
  evaluate: 'evaluate',
  waitForText: 'wait_for',
  screenshot: 'screenshot',
  openTab: 'tab_new',
  listTabs: 'tab_list',
  closeTab: 'tab_close',
  consoleMessages: 'console_messages',
} as const;
