import {
  type PropertySignatureStructure,
  type StatementStructures,
  StructureKind,
  VariableDeclarationKind,
} from 'ts-morph';
import type { ApiModel } from '../../ir/model.js';
import { stringLiteral } from '../../ir/names.js';
import type { GeneratedFile } from '../generated-file.js';
import { printTypeScript } from '../print.js';
import type { SymbolTable } from '../symbols.js';
import { relativeImport } from '../symbols.js';
import { errorsFile } from './errors-file.js';
import { Imports } from './imports.js';
import { oauthFile } from './oauth-file.js';
import type { ClientPlan } from './plan.js';
import { vendoredRuntimeFile } from './vendor.js';

export const indexFile = 'client/index.ts';

function property(name: string, type: string, optional: boolean, doc: string): PropertySignatureStructure {
  return { kind: StructureKind.PropertySignature, name, type, hasQuestionToken: optional, docs: [doc] };
}

function optionsInterface(plan: ClientPlan, imports: Imports): StatementStructures {
  const transportOptions = imports.runtime('http/transport', 'TransportOptions', true);
  const authenticator = imports.runtime('http/auth', 'Authenticator', true);
  const baseUrlDoc =
    plan.defaultBaseUrl === null
      ? 'The API base URL; the spec gives no complete one, so it must be given.'
      : 'The API base URL; `defaultBaseUrl` when left out.';
  return {
    kind: StructureKind.Interface,
    name: 'ClientOptions',
    isExported: true,
    extends: [`Omit<${transportOptions}, 'baseUrl' | 'auth' | 'errorClasses'>`],
    properties: [
      property('baseUrl', 'string', plan.defaultBaseUrl !== null, baseUrlDoc),
      ...(plan.bearer ? [property('apiKey', 'string', true, 'An API key, sent as a bearer token.')] : []),
      property(
        'auth',
        authenticator,
        true,
        'Any other credential, such as `createOAuthClient(...).tokenAuth(tokens)`.',
      ),
    ],
  };
}

function createClientBody(plan: ClientPlan, imports: Imports): string[] {
  const transport = imports.runtime('http/transport', 'HttpTransport');
  imports.local(errorsFile, 'errorClasses');
  const auth = plan.bearer
    ? `options.auth ?? (options.apiKey === undefined ? undefined : ${imports.runtime('http/auth', 'apiKeyAuth')}(options.apiKey))`
    : 'options.auth';
  const baseUrl = plan.defaultBaseUrl === null ? '' : 'baseUrl: options.baseUrl ?? defaultBaseUrl, ';
  const groups = plan.groups.map(
    (group) => `${group.property}: new ${imports.local(group.file, group.className)}(transport),`,
  );
  return [
    `const transport = new ${transport}({ ...options, ${baseUrl}auth: ${auth}, errorClasses });`,
    `return {\n${groups.join('\n')}\n};`,
  ];
}

/** The errors, the OAuth helper and the runtime's credentials and options, so callers need one import. */
function reexports(plan: ClientPlan): StatementStructures[] {
  const local = [errorsFile, ...(plan.oauth === null ? [] : [oauthFile])].map((file) => ({
    kind: StructureKind.ExportDeclaration as const,
    moduleSpecifier: `./${file.slice('client/'.length).replace(/\.ts$/, '.js')}`,
  }));
  const runtime = [
    { module: 'http/auth', names: ['apiKeyAuth', 'basicAuth', 'OAuthTokenAuth'], isTypeOnly: false },
    { module: 'http/oauth-error', names: ['OAuthError'], isTypeOnly: false },
    { module: 'http/auth', names: ['Authenticator', 'TokenSet'], isTypeOnly: true },
    { module: 'http/transport', names: ['RequestOptions'], isTypeOnly: true },
  ].map(({ module, names, isTypeOnly }) => ({
    kind: StructureKind.ExportDeclaration as const,
    isTypeOnly,
    moduleSpecifier: relativeImport(indexFile, vendoredRuntimeFile(module)),
    namedExports: names,
  }));
  return [...local, ...runtime];
}

/** `createClient(options)` → `{ streams, reports, ... }`, and everything a caller needs from one import. */
export function indexFileOf(model: ApiModel, symbols: SymbolTable, plan: ClientPlan): GeneratedFile {
  const imports = new Imports(indexFile, symbols);
  const statements: StatementStructures[] = [];
  if (plan.defaultBaseUrl !== null) {
    statements.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["The base URL of the spec's first server."],
      declarations: [{ name: 'defaultBaseUrl', initializer: stringLiteral(plan.defaultBaseUrl) }],
    });
  }
  statements.push(optionsInterface(plan, imports), {
    kind: StructureKind.Interface,
    name: 'Client',
    isExported: true,
    docs: ['One property per resource group of the spec.'],
    properties: plan.groups.map((group) => ({
      name: group.property,
      type: group.className,
      isReadonly: true,
    })),
  });
  statements.push({
    kind: StructureKind.Function,
    name: 'createClient',
    isExported: true,
    parameters: [
      {
        name: 'options',
        type: 'ClientOptions',
        ...(plan.defaultBaseUrl === null ? {} : { initializer: '{}' }),
      },
    ],
    returnType: 'Client',
    statements: createClientBody(plan, imports),
    docs: ['A client for every operation of the spec, grouped by resource.'],
  });
  return printTypeScript(model, indexFile, {
    statements: [...imports.structures(), ...statements, ...reexports(plan)],
  });
}
