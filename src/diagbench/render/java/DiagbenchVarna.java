import fr.orsay.lri.varna.applications.VARNAcmd;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Vector;

/**
 * VARNA's command line ({@code VARNAcmd}) drawing structure after structure in one JVM.
 *
 * <p>Usage: {@code java -cp varna.jar:DIR DiagbenchVarna OPTION...}: the options every drawing
 * gets ({@code -algorithm naview ...}). Each request on stdin is one frame (an 8-byte
 * little-endian length, then that many bytes) holding a sequence, a newline and its
 * dot-bracket structure; VARNAcmd draws it to {@code drawing.svg} in the working folder, as
 * {@code VARNAcmd -sequenceDBN SEQ -structureDBN STRUCT -o drawing.svg OPTION...} would. The
 * answer is four frames: the exit status VARNAcmd's {@code main} would end with (as ASCII
 * digits), what it wrote on stdout, what it wrote on stderr (its messages as {@code main}
 * prints them) and the SVG (empty when none was written). After an {@link Error} (out of
 * memory) the JVM answers and ends. The JVM ends when its input ends.
 */
public final class DiagbenchVarna {
    private static final Path DRAWING = Paths.get("drawing.svg");

    private DiagbenchVarna() {
    }

    public static void main(String[] options) throws IOException {
        DataInputStream in = new DataInputStream(System.in);
        OutputStream answers = new FileOutputStream(FileDescriptor.out);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        while (true) {
            byte[] request;
            try {
                request = readFrame(in);
            } catch (EOFException end) {
                System.exit(0); // VARNA's own threads would keep the JVM alive otherwise
                return;
            }
            String[] parts = new String(request, StandardCharsets.UTF_8).split("\n", 2);
            Vector<String> args = new Vector<>();
            args.add("-sequenceDBN");
            args.add(parts[0]);
            args.add("-structureDBN");
            args.add(parts.length > 1 ? parts[1] : "");
            args.add("-o");
            args.add(DRAWING.toString());
            for (String option : options) {
                args.add(option);
            }
            out.reset();
            err.reset();
            Files.deleteIfExists(DRAWING);
            int status = 0;
            boolean fatal = false;
            try {
                new VARNAcmd(args).run();
            } catch (IOException e) {
                e.printStackTrace();
            } catch (VARNAcmd.ExitCode e) {
                System.err.println(e.getExitMessage());
                status = e.getExitCode();
            } catch (Throwable e) {
                System.err.print("Exception in thread \"main\" ");
                e.printStackTrace();
                status = 1;
                fatal = e instanceof Error;
            }
            System.out.flush();
            System.err.flush();
            byte[] svg = Files.exists(DRAWING) ? Files.readAllBytes(DRAWING) : new byte[0];
            Files.deleteIfExists(DRAWING);
            writeFrame(answers, Integer.toString(status).getBytes(StandardCharsets.US_ASCII));
            writeFrame(answers, out.toByteArray());
            writeFrame(answers, err.toByteArray());
            writeFrame(answers, svg);
            answers.flush();
            if (fatal) {
                System.exit(1);
            }
        }
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        byte[] head = new byte[8];
        in.readFully(head);
        long size = 0;
        for (int k = 7; k >= 0; k--) {
            size = (size << 8) | (head[k] & 0xff);
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new IOException("a request of " + size + " bytes");
        }
        byte[] data = new byte[(int) size];
        in.readFully(data);
        return data;
    }

    private static void writeFrame(OutputStream out, byte[] data) throws IOException {
        long size = data.length;
        byte[] head = new byte[8];
        for (int k = 0; k < 8; k++) {
            head[k] = (byte) (size >>> (8 * k));
        }
        out.write(head);
        out.write(data);
    }
}
