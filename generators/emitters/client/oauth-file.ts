import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { ApiModel } from '../../ir/model.js';
import { stringLiteral } from '../../ir/names.js';
import type { GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import type { SymbolTable } from '../symbols.js';
import { Imports } from './imports.js';
import type { OAuthPlan } from './plan.js';
import { responseKind } from './plan.js';

export const oauthFile = 'client/oauth.ts';

/** The token body: the runtime's RFC 6749 shape, narrowed by the token operation's 200 body when the spec has one. */
function tokensType(plan: OAuthPlan, imports: Imports): string {
  const tokenResponse = imports.runtime('http/oauth', 'TokenResponse', true);
  const operation = plan.tokenOperation;
  const success = operation?.responses.find((response) => response.status === '200');
  if (operation === null || success === undefined || responseKind(success.contentType) !== 'json')
    return tokenResponse;
  return `${tokenResponse} & ${imports.symbol('types', 'operation-responses', operation.id)}['200']`;
}

/** `createOAuthClient`: the authorization code flow with PKCE, bound to the URLs of the spec's OAuth 2 scheme. */
export function oauthFileOf(model: ApiModel, symbols: SymbolTable, plan: OAuthPlan): GeneratedFile {
  const imports = new Imports(oauthFile, symbols);
  const client = imports.runtime('http/oauth', 'OAuthClient');
  const clientOptions = imports.runtime('http/oauth', 'OAuthClientOptions', true);
  const scopes = Object.keys(plan.scheme.scopes).sort();
  const alias = (name: string, type: string, doc: string) => ({
    kind: StructureKind.TypeAlias as const,
    name,
    type,
    isExported: true,
    docs: [doc],
  });
  const tokens = tokensType(plan, imports);
  return printTypeScript(model, oauthFile, {
    statements: [
      ...imports.structures(),
      alias(
        'OAuthScope',
        scopes.length === 0 ? 'string' : scopes.map(stringLiteral).join(' | '),
        `Scopes of the ${plan.scheme.name} scheme.`,
      ),
      alias('OAuthTokens', tokens, 'What the token endpoint answers to a code exchange or a refresh.'),
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: [`The ${plan.scheme.name} scheme's authorization and token URLs.`],
        declarations: [
          {
            name: 'oauthUrls',
            initializer: `{ authorizationUrl: ${stringLiteral(plan.authorizationUrl)}, tokenUrl: ${stringLiteral(plan.tokenUrl)} } as const`,
          },
        ],
      },
      alias(
        'OAuthOptions',
        `Omit<${clientOptions}, keyof typeof oauthUrls> & Partial<Pick<${clientOptions}, keyof typeof oauthUrls>>`,
        "The client registration; the URLs default to the spec's and may be overridden (a staging authorization server).",
      ),
      {
        kind: StructureKind.Function,
        name: 'createOAuthClient',
        isExported: true,
        parameters: [{ name: 'options', type: 'OAuthOptions' }],
        returnType: `${client}<OAuthScope, OAuthTokens>`,
        statements: [`return new ${client}({ ...oauthUrls, ...options });`],
        docs: [
          'Authorize URL with `state` and PKCE S256, code exchange, refresh, and `tokenAuth` for `createClient`.',
        ],
      },
    ],
  });
}
