"""jupyter_kernel_test conformance suite against the installed 'kneepoint' kernelspec."""
import unittest

import jupyter_kernel_test


class KneepointKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "kneepoint"
    language_name = "Java"
    file_extension = ".jshell"

    code_hello_world = 'System.out.println("hello, world");'
    code_stderr = 'System.err.println("oops");'

    completion_samples = [
        {"text": "System.currentTimeMil", "matches": {"currentTimeMillis()"}},
        {"text": "Math.ab", "matches": {"abs(", "absExact("}},
    ]
    complete_code_samples = ["1 + 1", "int x = 1;", "%jars /tmp", "for (int i = 0; i < 2; i++) { }"]
    incomplete_code_samples = ["for (int i = 0; i < 3; i++) {", "int y = (1 +"]
    invalid_code_samples = ["int x = ;", "x = )"]

    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": '"kneepoint".toUpperCase()', "result": "KNEEPOINT"},
    ]
    code_display_data = [
        {"code": 'display(Table.create("empty"));', "mime": "text/html"},
    ]
    code_history_pattern = "6 ?*"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "Math.abs"
    code_generate_error = 'throw new IllegalStateException("boom");'


if __name__ == "__main__":
    unittest.main()
