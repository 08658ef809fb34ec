// The official PINT-AE Schematron (the compiled .xslt files in ../shared/pint-ae/schematron) run by
// Saxon-HE on a warm JVM: what the phive and ISAITB validators run. Driven by saxon-he.ts over
// stdin/stdout, one command per line:
//
//   validate FILE         -> "finding FLAG ID LOCATION" per failed assert / successful report,
//                            or "error MESSAGE" on a dynamic error; then "done"
//   time BUDGET_MS FILE   -> "ms MEDIAN" : median time of one validation (parse + both
//                            stylesheets + reading the findings), median of batch means, after a
//                            warm-up, batches of about BUDGET_MS / 10 until BUDGET_MS is spent
//
// The profile (billing / selfbilling) is chosen from the raw text as validate.mjs does.
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.DocumentBuilder;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.XPathCompiler;
import net.sf.saxon.s9api.XPathSelector;
import net.sf.saxon.s9api.XdmDestination;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XsltCompiler;
import net.sf.saxon.s9api.XsltExecutable;
import net.sf.saxon.s9api.XsltTransformer;

public final class PintAeSaxon {
  private static final String[] FILES = {"PINT-UBL-validation-preprocessed.xslt", "PINT-jurisdiction-aligned-rules.xslt"};
  private static final Pattern SELFBILLING = Pattern.compile("<cbc:CustomizationID>[^<]*selfbilling");
  private static final QName ID = new QName("id");
  private static final QName FLAG = new QName("flag");
  private static final QName LOCATION = new QName("location");

  private final Processor processor = new Processor(false);
  private final DocumentBuilder builder = processor.newDocumentBuilder();
  private final Map<String, XsltExecutable[]> stylesheets = new HashMap<>();
  private final XPathSelector findings;

  private PintAeSaxon(Path schematronDir) throws Exception {
    XsltCompiler compiler = processor.newXsltCompiler();
    for (String profile : new String[] {"billing", "selfbilling"}) {
      XsltExecutable[] pair = new XsltExecutable[FILES.length];
      for (int i = 0; i < FILES.length; i++) pair[i] = compiler.compile(new StreamSource(schematronDir.resolve(profile).resolve(FILES[i]).toFile()));
      stylesheets.put(profile, pair);
    }
    XPathCompiler xpath = processor.newXPathCompiler();
    xpath.declareNamespace("svrl", "http://purl.oclc.org/dsdl/svrl");
    findings = xpath.compile("//svrl:failed-assert | //svrl:successful-report").load();
  }

  /** One validation: parse, both stylesheets, findings as "FLAG ID LOCATION". */
  private List<String> validate(String xml) throws Exception {
    String profile = SELFBILLING.matcher(xml).find() ? "selfbilling" : "billing";
    XdmNode source = builder.build(new StreamSource(new StringReader(xml)));
    List<String> out = new ArrayList<>();
    for (XsltExecutable exe : stylesheets.get(profile)) {
      XsltTransformer t = exe.load();
      t.setInitialContextNode(source);
      XdmDestination svrl = new XdmDestination();
      t.setDestination(svrl);
      t.transform();
      findings.setContextItem(svrl.getXdmNode());
      for (XdmItem item : findings) {
        XdmNode n = (XdmNode) item;
        String flag = n.getAttributeValue(FLAG);
        out.add((flag == null ? "fatal" : flag) + " " + n.getAttributeValue(ID) + " " + n.getAttributeValue(LOCATION));
      }
    }
    return out;
  }

  private double time(String xml, double budgetMs) throws Exception {
    long t0 = System.nanoTime();
    validate(xml);
    validate(xml);
    double estimate = Math.max((System.nanoTime() - t0) / 2e6, 0.001);
    int perBatch = (int) Math.max(1, Math.round(budgetMs / 10 / estimate));
    List<Double> means = new ArrayList<>();
    long start = System.nanoTime();
    while (means.size() < 5 || (System.nanoTime() - start) / 1e6 < budgetMs) {
      t0 = System.nanoTime();
      for (int i = 0; i < perBatch; i++) validate(xml);
      means.add((System.nanoTime() - t0) / 1e6 / perBatch);
    }
    Collections.sort(means);
    return means.get(means.size() / 2);
  }

  public static void main(String[] args) throws Exception {
    PrintStream err = System.err;
    System.setErr(new PrintStream(java.io.OutputStream.nullOutputStream())); // the stylesheets' compile warnings
    PintAeSaxon saxon;
    try {
      saxon = new PintAeSaxon(new File(args[0]).toPath());
    } finally {
      System.setErr(err);
    }
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    out.println("ready " + saxon.processor.getSaxonProductVersion());
    out.flush();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      try {
        String[] cmd = line.split(" ", line.startsWith("time ") ? 3 : 2);
        String xml = Files.readString(Path.of(cmd[cmd.length - 1]), StandardCharsets.UTF_8);
        if (cmd[0].equals("time")) out.println("ms " + saxon.time(xml, Double.parseDouble(cmd[1])));
        else for (String f : saxon.validate(xml)) out.println("finding " + f);
      } catch (Exception e) {
        out.println("error " + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
      out.println("done");
      out.flush();
    }
  }
}
