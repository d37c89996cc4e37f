// A Babel plugin that runs after Lingui's macro (decision 0329): every message descriptor the macro
// leaves, `{ id, message: "Hello {name}" }`, keeps its English text compiled to Lingui's message form
// (the array its runtime interpolates), so English needs no catalogue at run time. Each chunk carries
// the English words of its own code, and the entry does not carry the words of every page.
import { compileMessage } from '@lingui/message-utils/compileMessage';

/** @param {{ types: import('@babel/types') }} babel */
export default function compileSourceMessages({ types: t }) {
  return {
    name: 'compile-source-messages',
    visitor: {
      Program: {
        exit(program) {
          program.traverse({
            ObjectExpression(path) {
              const props = path.node.properties.filter((p) => p.type === 'ObjectProperty' && !p.computed);
              const keyName = (p) => (p.key.type === 'Identifier' ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : null);
              const id = props.find((p) => keyName(p) === 'id');
              const message = props.find((p) => keyName(p) === 'message');
              if (!id || !message || id.value.type !== 'StringLiteral' || message.value.type !== 'StringLiteral') return;
              const compiled = compileMessage(message.value.value);
              // Always an array: Lingui's runtime warns about (and cannot interpolate) a bare string.
              message.value = t.valueToNode(typeof compiled === 'string' ? [compiled] : compiled);
            },
          });
        },
      },
    },
  };
}
