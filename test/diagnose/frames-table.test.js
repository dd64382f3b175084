'use strict'

// The frames table every diagnosis prints (diagnose/frames-table.js): a row
// a frame, and a C or C++ function by its qualified name, as nm's demangled
// signature would run to 250 characters.

const t = require('tap')
const { formatFrames, describeHottest } = require('../../diagnose/frames-table')

const row = (functionName, location = '[cpp]', own = false) => formatFrames('title', [{ functionName, location, share: 0.617, own }]).split('\n')[1]

t.test('a row: the share, the function, where it is, and a mark on this repo\'s code', async (t) => {
  t.equal(formatFrames('Hottest:', []), 'Hottest:')
  t.equal(row('(anonymous)', 'slow/etag.js:25', true), '   61.7 %  (anonymous)  slow/etag.js:25   <- this repo')
  t.equal(row('update', 'node:internal/crypto/hash:179'), '   61.7 %  update  node:internal/crypto/hash:179')
  t.equal(row('sha512_block_data_order_avx2'), '   61.7 %  sha512_block_data_order_avx2  [cpp]')
})

t.test('a C++ function by its qualified name: no return type, no parameters', async (t) => {
  const shown = (signature, location) => row(signature, location).split('  ')[2]
  t.equal(shown('v8::internal::JsonStringifier::Result v8::internal::JsonStringifier::Serialize_<false>(v8::internal::Handle<v8::internal::Object>, bool, v8::internal::Handle<v8::internal::Object>)'),
    'v8::internal::JsonStringifier::Serialize_<false>')
  t.equal(shown('v8::internal::FastJsonStringifier<unsigned char>::SerializeObject(v8::internal::ContinuationRecord, v8::internal::PerThreadAssertScopeEmpty<false, (v8::internal::PerThreadAssertType)1>)', '[v8]'),
    'v8::internal::FastJsonStringifier<unsigned char>::SerializeObject')
  t.equal(shown('node::crypto::Hash::New(v8::FunctionCallbackInfo<v8::Value> const&)'), 'node::crypto::Hash::New')
  t.equal(shown('v8::internal::(anonymous namespace)::Invoke(v8::internal::Isolate*, v8::internal::(anonymous namespace)::InvokeParams const&)'), 'v8::internal::(anonymous namespace)::Invoke')
  t.equal(shown('std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)'),
    'std::operator<< <std::char_traits<char> >')
  t.equal(shown('node::(anonymous namespace)::Task::operator()() const'), 'node::(anonymous namespace)::Task::operator()')
  t.equal(shown('void* operator new(unsigned long)'), 'operator new')
  t.equal(shown('__write@@GLIBC_2.2.5', '[system]'), '__write@@GLIBC_2.2.5')
  const mangled = '_ZN2v88internal19FastJsonStringifierIhE18AppendStringScalarIhQeqstTL0__Lm1EEEbPKT_mmmRKNS0_25PerThreadAssertScopeEmptyILb0EJLNS0_19PerThreadAssertTypeE1ELS9_2EEEE'
  t.equal(shown(mangled), `${mangled.slice(0, 99)}…`, 'one nm could not demangle: its first 100 characters')
  t.equal(shown('get size', 'node_modules/lru-cache/dist/commonjs/index.js:1141'), 'get size', 'a JavaScript function as it is')
})

t.test('a [SHARED_LIB] row, code the profiler found no name for, is said in one line under the table', async (t) => {
  const frames = [{ functionName: '[SHARED_LIB]', location: '/usr/lib/x86_64-linux-gnu/libc.so.6', share: 0.026, own: false }]
  t.same(formatFrames('With V8 and C++ frames shown:', frames).split('\n'), [
    'With V8 and C++ frames shown:',
    '    2.6 %  [SHARED_LIB]  /usr/lib/x86_64-linux-gnu/libc.so.6',
    '  [SHARED_LIB]: code in that file that the profiler found no function name for (no symbol for it there, or no `nm` to read them).'
  ])
  t.notMatch(formatFrames('t', [{ functionName: 'update', location: 'node:internal/crypto/hash:179', share: 0.1 }]), /SHARED_LIB/, 'and nothing without one')
})

t.test('the verdict above the tables: whose code the hottest frame is, then the shares', async (t) => {
  const ours = { functionName: '(anonymous)', location: 'slow/etag.js:25', share: 0.746, own: true }
  t.same(describeHottest([ours], 0.75).split('\n'), [
    "The hottest frame is this repo's code: (anonymous) at slow/etag.js:25.",
    '  its share of the samples: 74.6 %',
    "  this repo's code, all of it: 75.0 %"])
  const node = { functionName: 'writev', location: 'node:internal/stream_base_commons:72', share: 0.09, own: false }
  t.match(describeHottest([node, ours], 0.01), /^The hottest frame is not this repo's code: writev at node:internal\/stream_base_commons:72\.\n/)
  t.equal(describeHottest([], 0), 'No frame was sampled.')
})
