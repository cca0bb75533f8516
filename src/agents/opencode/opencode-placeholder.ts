/**
 * The literal start of OpenCode's empty-input text (what a screen grep looks for).
 * @public
 */
export const OPENCODE_INPUT_PLACEHOLDER = 'Ask anything…';

/**
 * OpenCode's empty input box line in full: `Ask anything… "<example>"`, the closing quote optional because a narrow box
 * cuts the example; a bare `Ask anything…` (typed by someone) is a draft, not the placeholder.
 * @public
 */
export const OPENCODE_INPUT_PLACEHOLDER_PATTERN = /^[\s│┃|]*Ask anything(?:…|\.\.\.) "[^"]*[^"\s][^"]*"?[\s│┃|]*$/u;
