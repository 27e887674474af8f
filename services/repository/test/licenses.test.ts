import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { LicenseDetector, isLicenseFileName, type LicenseTexts } from '../src/domain/licenses.js';

const texts = createRequire(import.meta.url)('spdx-license-list/full') as LicenseTexts;
const detector = new LicenseDetector(() => texts);

describe('license files', () => {
  it('are the root files Gitea treats as licenses', () => {
    for (const name of ['LICENSE', 'license.md', 'LICENCE.txt', 'COPYING', 'UNLICENSE', 'LICENSE-MIT', 'license_apache']) expect([name, isLicenseFileName(name)]).toEqual([name, true]);
    for (const name of ['README.md', 'licenses.json', 'mylicense', 'COPYINGS']) expect([name, isLicenseFileName(name)]).toEqual([name, false]);
  });

  it('are recognised by their text, with the copyright filled in', () => {
    const mit = texts.MIT!.licenseText.replace('<year>', '2026').replace('<copyright holders>', 'Ada Lovelace');
    expect(detector.detect([{ name: 'LICENSE', text: mit }])).toEqual(['MIT']);
    expect(detector.detect([{ name: 'LICENSE.md', text: texts['Apache-2.0']!.licenseText }, { name: 'COPYING', text: texts['GPL-3.0-only']!.licenseText }]))
      .toEqual(expect.arrayContaining(['Apache-2.0']));
  });

  it('are recognised by an SPDX-License-Identifier line', () => {
    expect(detector.detect([{ name: 'LICENSE', text: 'SPDX-License-Identifier: BSD-3-Clause\n' }])).toEqual(['BSD-3-Clause']);
  });

  it('name nothing when the text is not a license, or the file is not a license file', () => {
    expect(detector.detect([{ name: 'LICENSE', text: 'All rights reserved. Ask me first.' }])).toEqual([]);
    expect(detector.detect([{ name: 'NOTES', text: texts.MIT!.licenseText }])).toEqual([]);
  });
});
