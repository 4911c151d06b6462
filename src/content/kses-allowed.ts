/**
 * @module content/kses-allowed
 * The allow-lists of WordPress's kses (wp-includes/kses.php, as of WordPress 6.x): the tags and
 * attributes of post content (`$allowedposttags`, every tag also taking the global attributes), of
 * titles (`$allowedtags`), the named entities kept as they are, and the CSS properties a `style`
 * attribute may set (`safe_style_css`). Data only; the filter is `content/kses.ts`.
 */

/** Attributes every post tag takes (`_wp_add_global_attributes`); `data-*` stands for any data attribute. */
export const GLOBAL_ATTRIBUTES: readonly string[] = ['aria-controls', 'aria-current', 'aria-describedby', 'aria-details', 'aria-expanded', 'aria-hidden', 'aria-label', 'aria-labelledby', 'aria-live', 'class', 'data-*', 'dir', 'hidden', 'id', 'lang', 'style', 'title', 'role', 'xml:lang'];

/** `$allowedposttags` without the global attributes. `object` is left out: WordPress allows it only for PDFs of the site's own uploads. */
export const POST_TAGS: Readonly<Record<string, readonly string[]>> = {
  address: [],
  a: ['href', 'rel', 'rev', 'name', 'target', 'download'],
  abbr: [],
  acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: ['align'],
  aside: ['align'],
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: ['align'],
  cite: [],
  code: [],
  col: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  colgroup: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  del: ['datetime'],
  dd: [],
  dfn: [],
  details: ['align', 'open'],
  div: ['align'],
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: ['align'],
  figcaption: ['align'],
  font: ['color', 'face', 'size'],
  footer: ['align'],
  h1: ['align'],
  h2: ['align'],
  h3: ['align'],
  h4: ['align'],
  h5: ['align'],
  h6: ['align'],
  header: ['align'],
  hgroup: ['align'],
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width'],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: ['align'],
  li: ['align', 'value'],
  main: ['align'],
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: ['align'],
  p: ['align'],
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: ['align'],
  section: ['align'],
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: ['align'],
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: ['align', 'char', 'charoff', 'valign'],
  td: ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'],
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: ['align', 'char', 'charoff', 'valign'],
  th: ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'],
  thead: ['align', 'char', 'charoff', 'valign'],
  title: [],
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  ol: ['start', 'type', 'reversed'],
  var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** `$allowedtags` (titles, `title_save_pre`). */
export const TITLE_TAGS: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

/** Attributes that must be valueless (`a download`). */
export const VALUELESS_ONLY: Readonly<Record<string, readonly string[]>> = { a: ['download'] };

/** `wp_kses_uri_attributes`: values checked with `wp_kses_bad_protocol`. */
export const URI_ATTRIBUTES: ReadonlySet<string> = new Set([
  'action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href', 'icon', 'longdesc', 'manifest',
  'poster', 'profile', 'src', 'usemap', 'xmlns',
]);

/** `$allowedentitynames`. */
export const ENTITY_NAMES: ReadonlySet<string> = new Set(['nbsp', 'iexcl', 'cent', 'pound', 'curren', 'yen', 'brvbar', 'sect', 'uml', 'copy', 'ordf', 'laquo', 'not', 'shy', 'reg', 'macr', 'deg', 'plusmn', 'acute', 'micro', 'para', 'middot', 'cedil', 'ordm', 'raquo', 'iquest', 'Agrave', 'Aacute', 'Acirc', 'Atilde', 'Auml', 'Aring', 'AElig', 'Ccedil', 'Egrave', 'Eacute', 'Ecirc', 'Euml', 'Igrave', 'Iacute', 'Icirc', 'Iuml', 'ETH', 'Ntilde', 'Ograve', 'Oacute', 'Ocirc', 'Otilde', 'Ouml', 'times', 'Oslash', 'Ugrave', 'Uacute', 'Ucirc', 'Uuml', 'Yacute', 'THORN', 'szlig', 'agrave', 'aacute', 'acirc', 'atilde', 'auml', 'aring', 'aelig', 'ccedil', 'egrave', 'eacute', 'ecirc', 'euml', 'igrave', 'iacute', 'icirc', 'iuml', 'eth', 'ntilde', 'ograve', 'oacute', 'ocirc', 'otilde', 'ouml', 'divide', 'oslash', 'ugrave', 'uacute', 'ucirc', 'uuml', 'yacute', 'thorn', 'yuml', 'quot', 'amp', 'lt', 'gt', 'apos', 'OElig', 'oelig', 'Scaron', 'scaron', 'Yuml', 'circ', 'tilde', 'ensp', 'emsp', 'thinsp', 'zwnj', 'zwj', 'lrm', 'rlm', 'ndash', 'mdash', 'lsquo', 'rsquo', 'sbquo', 'ldquo', 'rdquo', 'bdquo', 'dagger', 'Dagger', 'permil', 'lsaquo', 'rsaquo', 'euro', 'fnof', 'Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta', 'Iota', 'Kappa', 'Lambda', 'Mu', 'Nu', 'Xi', 'Omicron', 'Pi', 'Rho', 'Sigma', 'Tau', 'Upsilon', 'Phi', 'Chi', 'Psi', 'Omega', 'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigmaf', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega', 'thetasym', 'upsih', 'piv', 'bull', 'hellip', 'prime', 'Prime', 'oline', 'frasl', 'weierp', 'image', 'real', 'trade', 'alefsym', 'larr', 'uarr', 'rarr', 'darr', 'harr', 'crarr', 'lArr', 'uArr', 'rArr', 'dArr', 'hArr', 'forall', 'part', 'exist', 'empty', 'nabla', 'isin', 'notin', 'ni', 'prod', 'sum', 'minus', 'lowast', 'radic', 'prop', 'infin', 'ang', 'and', 'or', 'cap', 'cup', 'int', 'sim', 'cong', 'asymp', 'ne', 'equiv', 'le', 'ge', 'sub', 'sup', 'nsub', 'sube', 'supe', 'oplus', 'otimes', 'perp', 'sdot', 'lceil', 'rceil', 'lfloor', 'rfloor', 'lang', 'rang', 'loz', 'spades', 'clubs', 'hearts', 'diams', 'sup1', 'sup2', 'sup3', 'frac14', 'frac12', 'frac34', 'there4']);

/** `safe_style_css` (the common subset; a property outside it is dropped from `style`). */
export const SAFE_CSS_PROPERTIES: ReadonlySet<string> = new Set(['background', 'background-color', 'background-image', 'background-position', 'background-repeat', 'background-size', 'background-attachment', 'background-blend-mode', 'border', 'border-radius', 'border-width', 'border-color', 'border-style', 'border-right', 'border-right-color', 'border-right-style', 'border-right-width', 'border-bottom', 'border-bottom-color', 'border-bottom-left-radius', 'border-bottom-right-radius', 'border-bottom-style', 'border-bottom-width', 'border-left', 'border-left-color', 'border-left-style', 'border-left-width', 'border-top', 'border-top-color', 'border-top-left-radius', 'border-top-right-radius', 'border-top-style', 'border-top-width', 'border-spacing', 'border-collapse', 'caption-side', 'columns', 'column-count', 'column-fill', 'column-gap', 'column-rule', 'column-span', 'column-width', 'color', 'filter', 'font', 'font-family', 'font-size', 'font-style', 'font-variant', 'font-weight', 'letter-spacing', 'line-height', 'text-align', 'text-decoration', 'text-indent', 'text-transform', 'height', 'min-height', 'max-height', 'width', 'min-width', 'max-width', 'margin', 'margin-right', 'margin-bottom', 'margin-left', 'margin-top', 'margin-block-start', 'margin-block-end', 'margin-inline-start', 'margin-inline-end', 'padding', 'padding-right', 'padding-bottom', 'padding-left', 'padding-top', 'padding-block-start', 'padding-block-end', 'padding-inline-start', 'padding-inline-end', 'flex', 'flex-basis', 'flex-direction', 'flex-flow', 'flex-grow', 'flex-shrink', 'flex-wrap', 'gap', 'row-gap', 'grid-template-columns', 'grid-auto-columns', 'grid-column-start', 'grid-column-end', 'grid-column', 'grid-column-gap', 'grid-template-rows', 'grid-auto-rows', 'grid-row-start', 'grid-row-end', 'grid-row', 'grid-row-gap', 'grid-gap', 'justify-content', 'justify-items', 'justify-self', 'align-content', 'align-items', 'align-self', 'clear', 'cursor', 'direction', 'float', 'list-style-type', 'object-fit', 'object-position', 'opacity', 'overflow', 'vertical-align', 'writing-mode', 'position', 'top', 'right', 'bottom', 'left', 'z-index', 'box-shadow', 'aspect-ratio', 'container-type', 'text-decoration-color', 'text-decoration-style', 'text-decoration-thickness', 'text-underline-offset', 'text-orientation', 'text-wrap', 'text-shadow', 'word-break', 'word-spacing', 'white-space']);
