// Worker thread: runs the official PINT-AE Schematron (compiled SEF files, SaxonJS) over one document at a
// time, off the API/worker event loop. Plain CommonJS so it loads without a TypeScript loader.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');

// saxon-js is an optional peer dependency: without it every job answers an error, and the caller goes on.
const SaxonJS = require('saxon-js');
const SVRL = 'http://purl.oclc.org/dsdl/svrl';
const NAMES = ['PINT-UBL-validation-preprocessed', 'PINT-jurisdiction-aligned-rules'];
const stylesheets = {};

/** dir holds billing/ and selfbilling/ (as the official release's schematron/ does), or the billing files themselves. */
function sefs(profile) {
  if (!stylesheets[profile]) {
    const nested = path.join(workerData.dir, profile);
    const base = fs.existsSync(nested) ? nested : workerData.dir;
    stylesheets[profile] = NAMES.map((name) => JSON.parse(fs.readFileSync(path.join(base, name + '.sef.json'), 'utf8')));
  }
  return stylesheets[profile];
}

function validate(xml) {
  const profile = /<cbc:CustomizationID>[^<]*selfbilling/.test(xml) ? 'selfbilling' : 'billing';
  const findings = [];
  for (const sef of sefs(profile)) {
    const result = SaxonJS.transform({ stylesheetInternal: sef, sourceText: xml, destination: 'document' }, 'sync');
    const nodes = SaxonJS.XPath.evaluate('//svrl:failed-assert | //svrl:successful-report', result.principalResult, {
      namespaceContext: { svrl: SVRL },
      resultForm: 'array',
    });
    for (const node of nodes) {
      findings.push({
        id: node.getAttribute('id') || '',
        flag: node.getAttribute('flag') || 'fatal',
        location: node.getAttribute('location') || '',
        text: SaxonJS.XPath.evaluate('normalize-space(svrl:text)', node, { namespaceContext: { svrl: SVRL } }),
      });
    }
  }
  const isFatal = (f) => f.flag === 'fatal' || f.flag === 'error';
  return { fatal: findings.filter(isFatal), warning: findings.filter((f) => !isFatal(f)) };
}

parentPort.on('message', (msg) => {
  try {
    parentPort.postMessage({ id: msg.id, ...validate(msg.xml) });
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: String((err && err.message) || err) });
  }
});
